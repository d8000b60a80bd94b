// The phone page's only script: live updates over server-sent events, and forms sent by fetch with
// the CSRF token and an idempotency key (the page works without it, as plain forms).
(function () {
  "use strict";
  var HOLD_MS = 600;
  var busy = false;
  var again = false;
  var deferred = false;
  var heldFor = 0;
  var downAt = 0;
  var newestFrame = 0;

  function main() { return document.getElementById("main"); }
  function csrf() {
    var meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.content : "";
  }
  function newKey() {
    if (window.crypto && crypto.randomUUID) { return crypto.randomUUID(); }
    return Date.now().toString(36) + Math.random().toString(36).slice(2, 12);
  }
  function typing() {
    var el = document.activeElement;
    return el && main().contains(el) && /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName) && el.type !== "hidden";
  }

  // Replace <main> with the one in html. A live refresh keeps what the player is composing
  // (sections marked data-keep) and the last message; the answer to a form replaces everything.
  function swap(html, live) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var fresh = doc.getElementById("main");
    var old = main();
    if (!fresh || !old) { return; }
    if (live) {
      var kept = old.querySelectorAll("[data-keep]");
      var slots = fresh.querySelectorAll("[data-keep]");
      if (kept.length === slots.length) {
        slots.forEach(function (slot, i) {
          // What the player typed stays; the limits are the fresh page's (an outbid auction's minimum).
          slot.querySelectorAll("input[name]").forEach(function (input) {
            var mine = kept[i].querySelector('input[name="' + input.name + '"]');
            if (!mine || input.type === "hidden") { return; }
            ["min", "max", "placeholder"].forEach(function (attr) {
              if (input.hasAttribute(attr)) { mine.setAttribute(attr, input.getAttribute(attr)); }
            });
          });
          slot.replaceWith(kept[i]);
        });
      }
      if (!fresh.querySelector(".flash")) {
        var anchor = fresh.querySelector(".mebar");
        old.querySelectorAll(".flash").forEach(function (f) {
          if (anchor) { anchor.after(f); } else { fresh.prepend(f); }
        });
      }
    }
    old.replaceWith(fresh);
    showFrame();  // the new page may have been drawn before the table's newest frame
    showReadAloud();
  }

  // The simulated table's screen: never go back to an older frame than one already announced.
  function showFrame() {
    var img = document.getElementById("oled");
    if (!img) { return; }
    var shown = parseInt((img.getAttribute("src").split("n=")[1] || "0"), 10);
    if (newestFrame > shown) {
      img.src = img.getAttribute("src").replace(/\?.*$/, "") + "?n=" + newestFrame;
    }
  }

  function refresh() {
    if (typing()) { deferred = true; return; }
    if (busy) { again = true; return; }
    busy = true;
    // X-Live: a refresh for news leaves the messages of the phone's own last action for its answer.
    fetch(location.pathname + location.search, { headers: { "X-Partial": "1", "X-Live": "1" },
                                                  credentials: "same-origin" })
      .then(function (r) { return r.ok && !r.redirected ? r.text() : null; })
      .then(function (html) { if (html) { swap(html, true); } })
      .catch(function () { /* the next event or reconnect brings the page up to date */ })
      .then(function () {
        busy = false;
        if (again) { again = false; refresh(); }
      });
  }

  document.addEventListener("focusout", function () {
    setTimeout(function () { if (deferred && !typing()) { deferred = false; refresh(); } }, 0);
  });

  document.addEventListener("pointerdown", function (ev) {
    if (ev.target.closest && ev.target.closest("[data-button]")) { downAt = Date.now(); }
  });
  document.addEventListener("pointerup", function (ev) {
    if (ev.target.closest && ev.target.closest("[data-button]")) { heldFor = Date.now() - downAt; }
  });

  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if ((form.getAttribute("method") || "get").toLowerCase() !== "post") { return; }
    var button = ev.submitter;
    if (button && button.dataset.confirm && !window.confirm(button.dataset.confirm)) {
      ev.preventDefault();
      return;
    }
    ev.preventDefault();
    if (form.dataset.busy) { return; }  // a double tap sends once; the key would make it harmless anyway
    form.dataset.busy = "1";
    busy = true;  // news waits for the answer, which shows them too
    var data = new FormData(form, button || undefined);
    if (button && button.dataset.button && heldFor >= HOLD_MS) { data.set("long", "1"); }
    heldFor = 0;
    var key = data.get("idem") || newKey();
    // getAttribute: a field called "action" would shadow form.action.
    fetch(form.getAttribute("action") || location.pathname, {
      method: "POST",
      body: new URLSearchParams(data),
      credentials: "same-origin",
      headers: { "X-CSRFToken": csrf(), "Idempotency-Key": key, "X-Partial": "1" }
    }).then(function (r) {
      if (r.redirected) {
        var url = new URL(r.url);
        if (url.pathname + url.search !== location.pathname + location.search) {
          // Another page (after joining, a new game…): load it whole, with its own stream.
          location.assign(url.pathname + url.search);
          return null;
        }
      }
      return r.text();
    }).then(function (html) { if (html !== null) { swap(html, false); } })
      .catch(function () { delete form.dataset.busy; })
      .then(function () {
        busy = false;
        if (again) { again = false; refresh(); }
      });
  });

  // Speech: the simulated table's page says what the table's speaker says; any other page says it when
  // "read aloud on this phone" is on (kept in this browser only). The newest sentence wins.
  var READ_ALOUD = "table-banker-read-aloud";
  function readAloud() {
    try { return window.localStorage.getItem(READ_ALOUD) === "1"; } catch (e) { return false; }
  }
  function speak(actions) {
    if (!window.speechSynthesis || !window.SpeechSynthesisUtterance || !actions) { return; }
    var table = document.getElementById("table-voice");
    if (!table && !(readAloud() && !document.querySelector("[data-table-page]"))) { return; }
    var text = actions.map(function (a) { return a.say || ""; }).filter(Boolean).join(" ");
    if (!text) { return; }
    var utterance = new SpeechSynthesisUtterance(text);
    utterance.lang = document.documentElement.lang || "en";
    if (table) {
      utterance.volume = Math.max(0, Math.min(100, parseInt(table.dataset.volume, 10) || 0)) / 100;
      if (table.dataset.voice === "woman") { utterance.pitch = 1.4; }
    }
    window.speechSynthesis.cancel();
    window.speechSynthesis.speak(utterance);
  }
  function showReadAloud() {
    var card = document.querySelector("[data-read-aloud-card]");
    var box = document.querySelector("[data-read-aloud]");
    if (!card || !box || !window.speechSynthesis) { return; }
    card.hidden = false;
    box.checked = readAloud();
  }
  document.addEventListener("change", function (ev) {
    if (!ev.target.matches || !ev.target.matches("[data-read-aloud]")) { return; }
    try { window.localStorage.setItem(READ_ALOUD, ev.target.checked ? "1" : "0"); } catch (e) { /* private mode */ }
  });
  showReadAloud();

  if (document.body.dataset.live === "1" && window.EventSource) {
    var since = main() ? main().dataset.state : "";
    var stream = new EventSource("/api/stream?since=" + encodeURIComponent(since || ""));
    stream.addEventListener("state", function (ev) {
      var data = JSON.parse(ev.data);
      if (!data.resync) { speak(data.actions); }
      var shown = main() ? main().dataset.state : "";
      if (shown !== data.game + "-" + data.seq) { refresh(); }
    });
    stream.addEventListener("trades", refresh);
    stream.addEventListener("log", refresh);  // the table added a line (a tag re-taught)
    stream.addEventListener("role", function () {
      fetch("/api/me", { credentials: "same-origin" }).then(refresh);
    });
    stream.addEventListener("frame", function (ev) {
      newestFrame = Math.max(newestFrame, parseInt(ev.data, 10) || 0);
      showFrame();
    });
    document.documentElement.dataset.stream = "on";
  }
})();
