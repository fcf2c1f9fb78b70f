//! Hex coordinates: [`Hex`] (axial `q, r`, from the `hexx` crate) and the operations on it.
//!
//! Axial coordinates are the working type; cube, offset and doubled coordinates are
//! conversions. Directions are numbered 0..6 in `hexx`'s order, clockwise on a screen whose
//! y axis points down (as our text pictures are drawn): `(1,0) (0,1) (-1,1) (-1,0) (0,-1)
//! (1,-1)`, i.e. E SE SW W NW NE on a pointy-top grid. `docs/hex.md` has the pictures.

pub use hexx::Hex;

/// The six direction vectors, indexed by direction number.
pub const DIRECTIONS: [Hex; 6] = Hex::NEIGHBORS_COORDS;

/// The six diagonal vectors; diagonal `i` lies between directions `i - 1` and `i`.
pub const DIAGONALS: [Hex; 6] = Hex::DIAGONAL_COORDS;

/// How hexes sit on screen: pointy-top (rows of hexes) or flat-top (columns of hexes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Orientation {
    #[default]
    Pointy,
    Flat,
}

impl Orientation {
    pub fn name(self) -> &'static str {
        match self {
            Orientation::Pointy => "pointy",
            Orientation::Flat => "flat",
        }
    }
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "pointy" => Some(Orientation::Pointy),
            "flat" => Some(Orientation::Flat),
            _ => None,
        }
    }
    fn hexx(self) -> hexx::HexOrientation {
        match self {
            Orientation::Pointy => hexx::HexOrientation::Pointy,
            Orientation::Flat => hexx::HexOrientation::Flat,
        }
    }
}

/// Which rows (pointy) or columns (flat) an offset grid shoves by half a hex.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Parity {
    Odd,
    Even,
}

impl Parity {
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "odd" => Some(Parity::Odd),
            "even" => Some(Parity::Even),
            _ => None,
        }
    }
}

/// The vector of direction `dir` (taken modulo 6).
#[inline]
pub fn direction(dir: usize) -> Hex {
    DIRECTIONS[dir % 6]
}

/// The opposite direction.
#[inline]
pub fn opposite(dir: usize) -> usize {
    (dir + 3) % 6
}

/// The direction number of a unit vector, if it is one.
pub fn direction_of(v: Hex) -> Option<usize> {
    DIRECTIONS.iter().position(|d| *d == v)
}

#[inline]
pub fn neighbor(h: Hex, dir: usize) -> Hex {
    h + direction(dir)
}

pub fn neighbors(h: Hex) -> [Hex; 6] {
    h.all_neighbors()
}

pub fn diagonals(h: Hex) -> [Hex; 6] {
    h.all_diagonals()
}

/// Hex distance: the number of steps between `a` and `b`.
#[inline]
pub fn distance(a: Hex, b: Hex) -> u32 {
    a.unsigned_distance_to(b)
}

/// The direction along which `b` lies on a straight axis line from `a` (`None` if `a == b` or
/// `b` is on no axis through `a`).
pub fn axis_direction(a: Hex, b: Hex) -> Option<usize> {
    let d = b - a;
    let n = d.ulength() as i32;
    if n == 0 || d.x % n != 0 || d.y % n != 0 {
        return None;
    }
    direction_of(Hex::new(d.x / n, d.y / n))
}

/// The hexes at exactly `radius` from `center`, starting at `center + radius * direction 0`
/// and going clockwise (on a y-down screen). Radius 0 is `[center]`.
pub fn ring(center: Hex, radius: u32) -> Vec<Hex> {
    center.ring(radius).collect()
}

/// Rings `0..=radius` concatenated, from the centre outward.
pub fn spiral(center: Hex, radius: u32) -> Vec<Hex> {
    center.spiral_range(0..=radius).collect()
}

/// Every hex within `radius` of `center`, ordered by `q` then `r`.
pub fn range(center: Hex, radius: u32) -> Vec<Hex> {
    center.range(radius).collect()
}

/// Rotate `h` about `center` by `steps` sixths of a turn, in direction order (direction `i`
/// becomes direction `i + steps`: clockwise on a y-down screen). Negative steps go back.
pub fn rotate(h: Hex, center: Hex, steps: i32) -> Hex {
    h.rotate_cw_around(center, steps.rem_euclid(6) as u32)
}

/// The three axes a reflection can keep fixed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Axis {
    Q,
    R,
    S,
}

impl Axis {
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "q" => Some(Axis::Q),
            "r" => Some(Axis::R),
            "s" => Some(Axis::S),
            _ => None,
        }
    }
}

/// Mirror `h` about `center`: relative to `center`, the cube coordinate `axis` is kept and the
/// other two are swapped (on a pointy grid, axis `r` mirrors left-right).
pub fn reflect(h: Hex, center: Hex, axis: Axis) -> Hex {
    let d = h - center;
    let r = match axis {
        Axis::Q => d.reflect_x(),
        Axis::R => d.reflect_y(),
        Axis::S => d.reflect_z(),
    };
    r + center
}

/// The straight axis line from `origin` in direction `dir`: `length` hexes, `origin` excluded.
pub fn axis_line(origin: Hex, dir: usize, length: u32) -> Vec<Hex> {
    let d = direction(dir);
    (1..=length as i32).map(|k| origin + d * k).collect()
}

/// The hexes on the straight line from `a` to `b`, both included (`distance + 1` hexes).
///
/// Exact integer arithmetic: the point at step `i` is `a + (b - a) * i / n` in cube
/// coordinates, rounded to the hex containing it, with points on a border between hexes
/// nudged by an infinitesimal `(+1, +2, -3) * e` cube offset (`nudge = 1`) or its opposite
/// (`nudge = -1`), as in the usual floating-point algorithm, but without its rounding
/// surprises. `line(a, b, 1)` is `line(b, a, 1)` reversed.
pub fn line_nudged(a: Hex, b: Hex, nudge: i64) -> Vec<Hex> {
    let n = distance(a, b) as i64;
    if n == 0 {
        return vec![a];
    }
    (0..=n).map(|i| line_point(a, b, n, i, nudge)).collect()
}

/// The hex at step `i` of `n = distance(a, b)` on [`line_nudged`]`(a, b, nudge)`.
/// Coordinates inside the documented range (`limits::MAX_COORD`) keep every product in `i64`.
#[inline]
pub fn line_point(a: Hex, b: Hex, n: i64, i: i64, nudge: i64) -> Hex {
    let (ax, ay, az) = (a.x as i64, a.y as i64, -(a.x as i64) - a.y as i64);
    let (bx, by, bz) = (b.x as i64, b.y as i64, -(b.x as i64) - b.y as i64);
    let eps = [nudge, 2 * nudge, -3 * nudge];
    // Cube point times n, plus eps * (infinitesimal).
    let p = [
        ax * (n - i) + bx * i,
        ay * (n - i) + by * i,
        az * (n - i) + bz * i,
    ];
    cube_round_exact(p, eps, n)
}

/// `line_nudged(a, b, 1)`.
pub fn line(a: Hex, b: Hex) -> Vec<Hex> {
    line_nudged(a, b, 1)
}

/// Round the cube point `(p + eps * d) / n` (d infinitesimal > 0) to its hex.
fn cube_round_exact(p: [i64; 3], eps: [i64; 3], n: i64) -> Hex {
    let mut r = [0i64; 3];
    // (difference numerator over n, infinitesimal coefficient), compared lexicographically.
    let mut diff = [(0i64, 0i64); 3];
    for k in 0..3 {
        // nearest integer to p/n, ties broken by the sign of eps.
        let fl = p[k].div_euclid(n);
        let rem = p[k].rem_euclid(n); // p = fl * n + rem, 0 <= rem < n
        let up = match (2 * rem).cmp(&n) {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Less => false,
            std::cmp::Ordering::Equal => eps[k] > 0,
        };
        r[k] = if up { fl + 1 } else { fl };
        let num = p[k] - r[k] * n; // value - rounded, times n
        diff[k] = if num > 0 {
            (num, eps[k])
        } else if num < 0 {
            (-num, -eps[k])
        } else {
            (0, eps[k].abs())
        };
    }
    let largest = (0..3).max_by(|&i, &j| diff[i].cmp(&diff[j])).unwrap_or(0);
    match largest {
        0 => r[0] = -r[1] - r[2],
        1 => r[1] = -r[0] - r[2],
        _ => r[2] = -r[0] - r[1],
    }
    Hex::new(r[0] as i32, r[1] as i32)
}

// ---- conversions -------------------------------------------------------------------------

/// Cube coordinates `(q, r, s)` with `q + r + s = 0`.
pub fn to_cube(h: Hex) -> [i32; 3] {
    h.to_cubic_array()
}

/// The hex of cube coordinates `(q, r, s)`, if `q + r + s == 0`.
pub fn from_cube(c: [i32; 3]) -> Option<Hex> {
    (c[0] as i64 + c[1] as i64 + c[2] as i64 == 0).then(|| Hex::new(c[0], c[1]))
}

/// Offset coordinates `(col, row)`: pointy grids shove odd or even rows right by half a hex,
/// flat grids shove odd or even columns down.
pub fn to_offset(h: Hex, orientation: Orientation, parity: Parity) -> [i32; 2] {
    h.to_offset_coordinates(mode(parity), orientation.hexx())
}

pub fn from_offset(colrow: [i32; 2], orientation: Orientation, parity: Parity) -> Hex {
    Hex::from_offset_coordinates(colrow, mode(parity), orientation.hexx())
}

fn mode(parity: Parity) -> hexx::OffsetHexMode {
    match parity {
        Parity::Odd => hexx::OffsetHexMode::Odd,
        Parity::Even => hexx::OffsetHexMode::Even,
    }
}

/// Doubled coordinates `(col, row)`: doubled width (`col = 2q + r`, `row = r`) for pointy
/// grids, doubled height (`col = q`, `row = 2r + q`) for flat ones.
pub fn to_doubled(h: Hex, orientation: Orientation) -> [i32; 2] {
    h.to_doubled_coordinates(doubled_mode(orientation))
}

/// The hex of doubled coordinates, if `col + row` is even (the other half are not hexes).
pub fn from_doubled(colrow: [i32; 2], orientation: Orientation) -> Option<Hex> {
    ((colrow[0] as i64 + colrow[1] as i64) % 2 == 0)
        .then(|| Hex::from_doubled_coordinates(colrow, doubled_mode(orientation)))
}

fn doubled_mode(orientation: Orientation) -> hexx::DoubledHexMode {
    match orientation {
        Orientation::Pointy => hexx::DoubledHexMode::DoubledWidth,
        Orientation::Flat => hexx::DoubledHexMode::DoubledHeight,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directions_go_clockwise_and_rotation_follows_them() {
        for d in 0..6 {
            assert_eq!(rotate(direction(d), Hex::ZERO, 1), direction(d + 1));
            assert_eq!(direction(opposite(d)), -direction(d));
            assert_eq!(diagonals(Hex::ZERO)[d], direction(d + 5) + direction(d));
        }
    }

    #[test]
    fn ring_starts_on_direction_zero_and_goes_clockwise() {
        let r = ring(Hex::ZERO, 2);
        assert_eq!(r.len(), 12);
        assert_eq!(r[0], direction(0) * 2);
        assert_eq!(r[1], direction(0) * 2 + direction(2));
        assert_eq!(spiral(Hex::ZERO, 2).len(), 19);
        assert_eq!(range(Hex::new(3, -1), 3).len(), 37);
    }

    #[test]
    fn line_along_an_edge_breaks_ties_by_the_nudge() {
        // (0,0) -> (1,1) passes exactly between (1,0) and (0,1).
        let a = line_nudged(Hex::ZERO, Hex::new(1, 1), 1);
        let b = line_nudged(Hex::ZERO, Hex::new(1, 1), -1);
        assert_eq!(a.len(), 3);
        assert_ne!(a[1], b[1]);
        assert!([Hex::new(1, 0), Hex::new(0, 1)].contains(&a[1]));
        let mut back = line_nudged(Hex::new(1, 1), Hex::ZERO, 1);
        back.reverse();
        assert_eq!(a, back);
    }

    #[test]
    fn conversions_round_trip() {
        for h in range(Hex::new(2, -3), 4) {
            for o in [Orientation::Pointy, Orientation::Flat] {
                for p in [Parity::Odd, Parity::Even] {
                    assert_eq!(from_offset(to_offset(h, o, p), o, p), h);
                }
                assert_eq!(from_doubled(to_doubled(h, o), o), Some(h));
            }
            assert_eq!(from_cube(to_cube(h)), Some(h));
        }
        assert_eq!(from_cube([1, 1, 1]), None);
        assert_eq!(from_doubled([1, 0], Orientation::Pointy), None);
    }

    #[test]
    fn reflection_is_an_involution_fixing_its_axis() {
        let c = Hex::new(1, 2);
        for h in range(c, 3) {
            for a in [Axis::Q, Axis::R, Axis::S] {
                assert_eq!(reflect(reflect(h, c, a), c, a), h);
                assert_eq!(distance(reflect(h, c, a), c), distance(h, c));
            }
        }
        assert_eq!(
            reflect(c + direction(0) * 2, c, Axis::R),
            c + direction(3) * 2
        );
        assert_eq!(reflect(c + direction(1), c, Axis::R), c + direction(2));
    }
}
