// kingdoms serve: the page. Plain JavaScript, no build step, nothing from the network.
// Every text from the server is set with textContent; the picture (SVG) is written by the
// library's drawing layer, which escapes everything it draws.
(function () {
  "use strict";
  var token = document.querySelector('meta[name="kingdoms-token"]').content;
  var $ = function (id) { return document.getElementById(id); };
  var SVGNS = "http://www.w3.org/2000/svg";
  var catalogue = null;
  var state = null;      // the last state of our seat
  var seat = null;       // the seat whose side the page shows
  var picked = [];       // the picture steps clicked so far
  var pollId = 0;        // the running long poll (a newer one stops older ones)
  var lastLog = 0;       // log entries shown so far
  var clickedAt = null;  // when the last move was clicked (for the timing figures)
  window.kingdomsTimings = { clicks: [], bots: [] };

  function api(method, path, body) {
    var init = { method: method, credentials: "same-origin", headers: { "X-Kingdoms-Token": token } };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    return fetch(path, init).then(function (r) {
      return r.json().then(function (j) {
        if (!r.ok) { throw new Error(j.error || ("HTTP " + r.status)); }
        return j;
      });
    });
  }

  function showError(e) {
    var p = $("error");
    p.textContent = e ? String(e.message || e) : "";
    p.hidden = !e;
  }

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) { e.textContent = text; }
    if (cls) { e.className = cls; }
    return e;
  }

  // ---- setup ---------------------------------------------------------------------------

  function gameInfo() {
    var name = $("game").value;
    return catalogue.games.filter(function (g) { return g.name === name; })[0];
  }

  function players() {
    var mode = document.querySelector('#options select[data-key="mode"]');
    if (!mode) { return 2; }
    var o = gameInfo().options.filter(function (x) { return x.key === "mode"; })[0];
    return parseInt(String(o.choices[parseInt(mode.value, 10)].value).split("/")[1], 10);
  }

  function buildOptions() {
    var box = $("options");
    box.textContent = "";
    gameInfo().options.forEach(function (o) {
      var label = el("label", o.label + " ");
      var sel = el("select");
      sel.dataset.key = o.key;
      o.choices.forEach(function (c, i) {
        var opt = el("option", c.label);
        opt.value = String(i);
        sel.appendChild(opt);
      });
      sel.addEventListener("change", buildSeats);
      label.appendChild(sel);
      box.appendChild(label);
    });
    buildSeats();
  }

  function buildSeats() {
    var box = $("seats");
    var old = Array.prototype.map.call(box.querySelectorAll("select"), function (s) { return s.value; });
    box.textContent = "";
    for (var p = 0; p < players(); p++) {
      var label = el("label", "player " + p + " ");
      var sel = el("select");
      sel.dataset.seat = String(p);
      var me = el("option", "a person here");
      me.value = "human";
      sel.appendChild(me);
      catalogue.agents.forEach(function (a) {
        var opt = el("option", a.label);
        opt.value = a.spec;
        sel.appendChild(opt);
      });
      var other = el("option", "another agent spec…");
      other.value = "";
      sel.appendChild(other);
      var spec = el("input");
      spec.type = "text";
      spec.size = 16;
      spec.placeholder = "e.g. ismcts:2000,c=0.5";
      spec.dataset.spec = String(p);
      spec.hidden = true;
      sel.addEventListener("change", function (s, i) {
        return function () { i.hidden = s.value !== ""; };
      }(sel, spec));
      sel.value = old[p] || (p === 0 ? "human" : "ismcts");
      label.appendChild(sel);
      label.appendChild(spec);
      box.appendChild(label);
    }
  }

  function chosenOptions() {
    var out = {};
    gameInfo().options.forEach(function (o) {
      var sel = document.querySelector('#options select[data-key="' + o.key + '"]');
      var c = o.choices[parseInt(sel.value, 10)];
      if (c.value !== null) { out[o.key] = c.value; }
    });
    return out;
  }

  function chosenSeats() {
    return Array.prototype.map.call($("seats").querySelectorAll("select"), function (s, p) {
      return s.value !== "" ? s.value : document.querySelector('#seats input[data-spec="' + p + '"]').value.trim();
    });
  }

  function started(s) {
    seat = s.seat;
    pollId++;
    lastLog = 0;
    $("log").textContent = "";
    $("hints").textContent = "";
    $("banner").textContent = "";
    $("play").hidden = false;
    render(s);
  }

  // ---- the game ------------------------------------------------------------------------

  function candidates() {
    return state.moves.filter(function (m) {
      for (var i = 0; i < picked.length; i++) { if (m.steps[i] !== picked[i]) { return false; } }
      return true;
    });
  }

  function elementsOf(key) {
    var at = key.indexOf("=");
    var attr = key.slice(0, at), value = key.slice(at + 1);
    if (!/^[a-z]+$/.test(attr)) { return []; }
    var svg = $("board").querySelector("svg");
    return Array.prototype.filter.call(svg.querySelectorAll("[data-" + attr + "]"), function (e) {
      return e.getAttribute("data-" + attr) === value && !e.classList.contains("hit") &&
        !e.classList.contains("mark");
    });
  }

  function overlay(key, cls) {
    var svg = $("board").querySelector("svg");
    elementsOf(key).forEach(function (e) {
      var b = e.getBBox();
      var r = document.createElementNS(SVGNS, "rect");
      r.setAttribute("x", b.x - 2);
      r.setAttribute("y", b.y - 2);
      r.setAttribute("width", b.width + 4);
      r.setAttribute("height", b.height + 4);
      r.setAttribute("rx", 5);
      r.setAttribute("class", cls);
      r.setAttribute("data-key", key);
      if (cls === "hit") { r.addEventListener("click", function () { pick(key); }); }
      svg.appendChild(r);
    });
  }

  function drawTargets() {
    var svg = $("board").querySelector("svg");
    Array.prototype.forEach.call(svg.querySelectorAll(".hit, .mark"), function (r) { r.remove(); });
    // the other seats' last moves, marked where they went
    (state.marks || []).forEach(function (k) { overlay(k, "mark"); });
    var box = $("choices");
    box.textContent = "";
    if (!state.moves.length) { return; }
    var cands = candidates();
    var next = {};
    var complete = [];
    cands.forEach(function (m) {
      if (m.steps.length > picked.length) { next[m.steps[picked.length]] = true; }
      else if (picked.length) { complete.push(m); }
    });
    picked.forEach(function (k) { overlay(k, "hit picked"); });
    Object.keys(next).forEach(function (k) { overlay(k, "hit"); });
    complete.forEach(function (m) {
      var b = el("button", m.text);
      b.type = "button";
      b.dataset.move = m.notation;
      b.addEventListener("click", function () { play(m.notation); });
      box.appendChild(b);
    });
    if (picked.length) {
      var c = el("button", "cancel");
      c.type = "button";
      c.id = "cancel";
      c.addEventListener("click", function () { picked = []; drawTargets(); });
      box.appendChild(c);
    }
  }

  function pick(key) {
    picked.push(key);
    var cands = candidates();
    var longer = cands.filter(function (m) { return m.steps.length > picked.length; });
    if (cands.length === 1 && !longer.length) { play(cands[0].notation); return; }
    drawTargets();
  }

  var busy = false;  // a move on its way: further clicks wait for its answer

  function play(notation) {
    if (busy) { return; }
    busy = true;
    document.body.dataset.busy = "1";
    clickedAt = performance.now();
    picked = [];
    change("move", { move: notation }).then(function () {
      busy = false;
      document.body.dataset.busy = "0";
    });
  }

  function change(what, extra) {
    var body = { seat: seat };
    Object.keys(extra || {}).forEach(function (k) { body[k] = extra[k]; });
    showError(null);
    return api("POST", "/api/sessions/" + state.session + "/" + what, body).then(render).catch(showError);
  }

  function render(s) {
    if (s.seat !== seat) { return; }  // an answer meant for the side shown before
    // an answer overtaken by a newer one (answers may arrive out of order)
    if (state && state.session === s.session && s.version < state.version) { return; }
    var fresh = !state || state.session !== s.session || s.version !== state.version;
    state = s;
    var board = $("board");
    board.innerHTML = s.svg;  // written by the library's escaping drawing layer
    document.body.dataset.version = String(s.version);
    document.body.dataset.toMove = s.to_move === null ? "" : String(s.to_move);
    document.body.dataset.over = s.over ? "1" : "0";
    if (clickedAt !== null && fresh) {
      window.kingdomsTimings.clicks.push(performance.now() - clickedAt);
      clickedAt = null;
    }
    var status = s.over ? "game over: " + s.result
      : s.thinking !== null ? "player " + s.thinking + " (" + s.seats[s.thinking] + ") is thinking…"
      : s.to_move === s.seat ? "your move, player " + s.seat
      : "player " + s.to_move + " to move";
    $("status").textContent = status;
    // the curtain: another person at this screen is to move
    var other = !s.over && s.to_move !== null && s.to_move !== seat && s.humans.indexOf(s.to_move) >= 0;
    $("curtain").hidden = !other;
    if (other) { $("curtain-text").textContent = "player " + s.to_move + "'s turn: pass the screen."; }
    $("board").hidden = other;
    // moves
    var list = $("moves");
    list.textContent = "";
    s.moves.forEach(function (m) {
      var li = el("li");
      var b = el("button", m.text);
      b.type = "button";
      b.dataset.move = m.notation;
      b.title = m.notation;
      b.addEventListener("click", function () { play(m.notation); });
      li.appendChild(b);
      list.appendChild(li);
    });
    if (fresh) { picked = []; $("hints").textContent = ""; }
    // the log, and the other seats' newest moves in the banner
    var log = $("log");
    if (s.log.length < lastLog) { log.textContent = ""; lastLog = 0; }
    var banner = [];
    for (var i = lastLog; i < s.log.length; i++) {
      var e = s.log[i];
      var who = e.player === s.seat ? "you" : "player " + e.player + " (" + s.seats[e.player] + ")";
      var li = el("li", who + ": " + e.move, e.player === s.seat ? "mine" : "other");
      if (e.note) { li.appendChild(el("div", e.note, "note")); }
      log.appendChild(li);
      if (e.player !== s.seat) { banner.push(who + " plays " + e.move + (e.note ? " — " + e.note : "")); }
    }
    if (s.log.length > lastLog) { log.lastChild.scrollIntoView({ block: "nearest" }); }
    lastLog = s.log.length;
    if (banner.length) {
      var b = $("banner");
      b.textContent = banner[banner.length - 1];
      b.classList.remove("fresh");
      void b.offsetWidth;
      b.classList.add("fresh");
      if (window.kingdomsTimings.botStart !== undefined) {
        window.kingdomsTimings.bots.push(performance.now() - window.kingdomsTimings.botStart);
        window.kingdomsTimings.botStart = undefined;
      }
    }
    var agentTurn = !s.over && s.to_move !== null && s.humans.indexOf(s.to_move) < 0;
    if (agentTurn && window.kingdomsTimings.botStart === undefined) {
      window.kingdomsTimings.botStart = performance.now();
    }
    $("undo").disabled = !s.can_undo;
    $("hint").disabled = s.over || s.to_move !== s.seat || !s.moves.length;
    $("resign").disabled = s.over;
    var base = "/api/sessions/" + encodeURIComponent(s.session);
    $("save").hidden = !s.over;
    $("save").href = base + "/record";
    $("replay").hidden = !s.over;
    $("replay").href = base + "/replay?seat=" + s.seat;
    drawTargets();
    document.body.dataset.ready = String(s.version);
    if (!s.over && s.to_move !== s.seat) { poll(); }
  }

  function poll() {
    var id = ++pollId;
    var sid = state.session, since = state.version;
    api("GET", "/api/sessions/" + sid + "/state?seat=" + seat + "&since=" + since).then(function (s) {
      if (id !== pollId || !state || state.session !== sid || s.seat !== seat) { return; }
      if (s.version === since && !s.over) { poll(); return; }
      render(s);
    }).catch(function (e) { if (id === pollId) { showError(e); } });
  }

  function reveal() {
    seat = state.to_move;
    pollId++;  // the poll for the other side's page stops here
    picked = [];
    api("GET", "/api/sessions/" + state.session + "/state?seat=" + seat).then(function (s) {
      lastLog = 0;
      $("log").textContent = "";
      render(s);
    }).catch(showError);
  }

  function hint() {
    var box = $("hints");
    box.textContent = "";
    box.appendChild(el("li", "thinking…"));
    api("POST", "/api/sessions/" + state.session + "/hint", { seat: seat }).then(function (h) {
      box.textContent = "";
      h.moves.forEach(function (m) {
        var li = el("li", (100 * m.share).toFixed(1) + "%  " + m.text);
        li.dataset.move = m.notation;
        box.appendChild(li);
      });
    }).catch(function (e) { box.textContent = ""; showError(e); });
  }

  function load() {
    var text = $("record-text").value;
    // the seats chosen above when they are for the record's game, else people in every seat
    var m = /\[Game "([a-z]+)"\]/.exec(text);
    var seats = m && m[1] === $("game").value ? chosenSeats() : null;
    api("POST", "/api/load", { record: text, seats: seats }).then(started).catch(showError);
  }

  function init() {
    api("GET", "/api/games").then(function (c) {
      catalogue = c;
      c.games.forEach(function (g) {
        var opt = el("option", g.name);
        opt.value = g.name;
        $("game").appendChild(opt);
      });
      $("game").addEventListener("change", buildOptions);
      buildOptions();
      document.body.dataset.loaded = "1";
    }).catch(showError);
    $("setup").addEventListener("submit", function (ev) {
      ev.preventDefault();
      showError(null);
      api("POST", "/api/sessions", { game: $("game").value, options: chosenOptions(), seats: chosenSeats() })
        .then(started).catch(showError);
    });
    $("undo").addEventListener("click", function () { change("undo"); });
    $("resign").addEventListener("click", function () { change("resign"); });
    $("hint").addEventListener("click", hint);
    $("reveal").addEventListener("click", reveal);
    $("load").addEventListener("click", load);
    $("record-file").addEventListener("change", function () {
      var f = $("record-file").files[0];
      if (!f) { return; }
      f.text().then(function (t) { $("record-text").value = t; });
    });
  }

  init();
}());
