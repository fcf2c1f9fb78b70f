//! Hex ↔ pixel layouts for rendering (Amit Patel's formulas, in `f64`).
//!
//! Screen coordinates with the y axis pointing down, as in an image or a canvas: direction 0
//! points right on a pointy-top grid. `hexx` has the same layout in `f32` with y up (Bevy's
//! world); Python users get `float` (f64) and expect image coordinates, so this one is ours.

use super::coords::{Hex, Orientation};

const SQRT3: f64 = 1.732_050_807_568_877_2;

/// Where hexes sit on screen: orientation, size (centre to corner, per axis) and the pixel
/// position of hex `(0, 0)`'s centre.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Layout {
    pub orientation: Orientation,
    pub size: (f64, f64),
    pub origin: (f64, f64),
}

impl Layout {
    pub fn new(orientation: Orientation, size: (f64, f64), origin: (f64, f64)) -> Self {
        Layout {
            orientation,
            size,
            origin,
        }
    }

    /// The fractional axial coordinates at a pixel, before rounding.
    pub fn fractional(&self, x: f64, y: f64) -> (f64, f64) {
        let px = (x - self.origin.0) / self.size.0;
        let py = (y - self.origin.1) / self.size.1;
        match self.orientation {
            Orientation::Pointy => (SQRT3 / 3.0 * px - py / 3.0, 2.0 / 3.0 * py),
            Orientation::Flat => (2.0 / 3.0 * px, -px / 3.0 + SQRT3 / 3.0 * py),
        }
    }

    /// The pixel at the centre of a hex.
    pub fn to_pixel(&self, h: Hex) -> (f64, f64) {
        self.fractional_to_pixel(h.x as f64, h.y as f64)
    }

    pub fn fractional_to_pixel(&self, q: f64, r: f64) -> (f64, f64) {
        let (x, y) = match self.orientation {
            Orientation::Pointy => (SQRT3 * q + SQRT3 / 2.0 * r, 1.5 * r),
            Orientation::Flat => (1.5 * q, SQRT3 / 2.0 * q + SQRT3 * r),
        };
        (
            x * self.size.0 + self.origin.0,
            y * self.size.1 + self.origin.1,
        )
    }

    /// The hex containing a pixel.
    pub fn to_hex(&self, x: f64, y: f64) -> Hex {
        let (q, r) = self.fractional(x, y);
        round(q, r)
    }

    /// The six corners of a hex, clockwise from the one at angle 0 (flat) or 30° (pointy).
    pub fn corners(&self, h: Hex) -> [(f64, f64); 6] {
        let (cx, cy) = self.to_pixel(h);
        let start = match self.orientation {
            Orientation::Pointy => 30.0f64,
            Orientation::Flat => 0.0,
        };
        std::array::from_fn(|i| {
            let a = (start + 60.0 * i as f64).to_radians();
            (cx + self.size.0 * a.cos(), cy + self.size.1 * a.sin())
        })
    }
}

/// Round fractional axial coordinates to the nearest hex (cube rounding). Non-finite or
/// out-of-range input saturates.
pub fn round(q: f64, r: f64) -> Hex {
    let s = -q - r;
    let (mut rq, mut rr, rs) = (q.round(), r.round(), s.round());
    let (dq, dr, ds) = ((rq - q).abs(), (rr - r).abs(), (rs - s).abs());
    if dq > dr && dq > ds {
        rq = -rr - rs;
    } else if dr > ds {
        rr = -rq - rs;
    }
    Hex::new(rq as i32, rr as i32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::coords::range;

    #[test]
    fn pixel_round_trips_for_both_orientations() {
        for o in [Orientation::Pointy, Orientation::Flat] {
            let l = Layout::new(o, (10.0, 8.0), (3.0, -2.0));
            for h in range(Hex::new(-2, 5), 4) {
                let (x, y) = l.to_pixel(h);
                assert_eq!(l.to_hex(x, y), h);
                for (cx, cy) in l.corners(h) {
                    // 10% of the way from each corner to the centre is still inside.
                    assert_eq!(l.to_hex(cx * 0.9 + x * 0.1, cy * 0.9 + y * 0.1), h);
                }
            }
        }
    }

    #[test]
    fn direction_zero_points_right_on_pointy_and_down_right_on_flat() {
        let p = Layout::new(Orientation::Pointy, (1.0, 1.0), (0.0, 0.0));
        let (x, y) = p.to_pixel(Hex::new(1, 0));
        assert!(x > 1.7 && y.abs() < 1e-12);
        let f = Layout::new(Orientation::Flat, (1.0, 1.0), (0.0, 0.0));
        let (x, y) = f.to_pixel(Hex::new(1, 0));
        assert!(x > 1.4 && y > 0.8);
    }
}
