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
  var SPENT_MS = 2500;
  var spent = null;  // the form just answered: {sig, until}; its buttons stay off a moment (a second tap is not a second payment)
  var connected = false;

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

  // What a form does (its address and the fields that say what), and which one of the forms doing it this is:
  // the same form in the page drawn after its answer.
  function what(form) {
    var parts = [form.getAttribute("action") || ""];
    ["action", "deck", "property", "do", "button", "meaning", "player"].forEach(function (name) {
      var field = form.querySelector('input[type=hidden][name="' + name + '"]');
      parts.push(field ? field.value : "");
    });
    return parts.join("|");
  }
  // The page's own forms, not those of an answer (the "again" question repeats the form it answers).
  function pageForms(root) {
    return Array.prototype.filter.call(root.querySelectorAll("form"), function (f) { return !f.closest(".flash"); });
  }
  function signature(form) {
    if (form.closest(".flash")) { return ""; }
    var mine = what(form);
    var index = 0;
    var forms = pageForms(main());
    for (var i = 0; i < forms.length && forms[i] !== form; i++) {
      if (what(forms[i]) === mine) { index++; }
    }
    return mine + "#" + index;
  }
  function findForm(root, sig) {
    var forms = pageForms(root);
    var counts = {};
    for (var i = 0; i < forms.length; i++) {
      var mine = what(forms[i]);
      counts[mine] = (counts[mine] || 0);
      if (mine + "#" + counts[mine] === sig) { return forms[i]; }
      counts[mine]++;
    }
    return null;
  }
  // The answer goes under the form that was tapped, where the finger is, and the page shows it; under a
  // grid of buttons (the bids' +10 +50 +100) it goes under the grid, as wide as it.
  function placeAnswers(root) {
    root.querySelectorAll(".flash[data-after]").forEach(function (answer) {
      var form = findForm(root, answer.dataset.after);
      if (!form) { return; }
      var grid = form.parentElement && form.parentElement.matches(".grid2, .grid3") ? form.parentElement : null;
      (grid || form).after(answer);
    });
  }
  function markSpent(root) {
    if (!spent || Date.now() >= spent.until) { spent = null; return; }
    var form = findForm(root, spent.sig);
    if (!form) { return; }
    form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    setTimeout(function () {
      var now = findForm(main(), spent ? spent.sig : "");
      if (now) { now.querySelectorAll("button").forEach(function (b) { b.disabled = false; }); }
    }, Math.max(0, spent.until - Date.now()));
  }
  function offline(on) {
    var banner = document.getElementById("offline");
    if (banner) { banner.hidden = !on; }
  }

  // A form drawn again (with the answer to a tap, or with news) still shows what was chosen in its lists
  // (the deed whose rent was paid, not the list's first deed), where the new page still offers it.
  function keepChoices(before, after) {
    if (!before || !after) { return; }
    before.querySelectorAll("select[name]").forEach(function (chosen) {
      var list = after.querySelector('select[name="' + chosen.name + '"]');
      if (!list) { return; }
      var options = Array.prototype.slice.call(list.options);
      if (!options.some(function (o) { return o.value === chosen.value; })) { return; }
      options.forEach(function (o) {
        if (o.value === chosen.value) { o.setAttribute("selected", ""); } else { o.removeAttribute("selected"); }
      });
    });
  }

  // Replace <main> with the one in html. A live refresh keeps what the player is composing
  // (sections marked data-keep) and the last message; the answer to a form replaces everything.
  function swap(html, live, sig) {
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
    if (!live && sig) {
      fresh.querySelectorAll(".flash[role=status], .flash.again").forEach(function (f) { f.dataset.after = sig; });
    }
    pageForms(old).forEach(function (form) { keepChoices(form, findForm(fresh, signature(form))); });
    placeAnswers(fresh);
    markSpent(fresh);
    if (live) { announcePayment(old, fresh); }
    old.replaceWith(fresh);
    if (!live && sig) {
      var answer = fresh.querySelector(".flash[data-after]");
      if (answer && answer.scrollIntoView) { answer.scrollIntoView({ block: "nearest" }); }
    }
    showFrame();  // the new page may have been drawn before the table's newest frame
    showReadAloud();
  }

  // A payment to or from this phone's player that came with the news (made at the table or on another
  // phone) is said by the screen reader: the page marks its player's latest payment (data-say, not text
  // of the page), and a new one is put in the page's live region. The phone's own taps are answered by their message already.
  function announcePayment(old, fresh) {
    var before = old.querySelector("[data-payment]");
    var after = fresh.querySelector("[data-payment]");
    var region = document.getElementById("announce");
    if (!after || !region || (before && before.dataset.payment === after.dataset.payment)) { return; }
    region.textContent = after.dataset.say || "";
  }

  // The simulated table's screen: never go back to an older frame than one already announced.
  // After a restart the numbers start again: the page then shows the new program's frame whatever its number.
  function showFrame(force) {
    var img = document.getElementById("oled");
    if (!img) { return; }
    var src = img.getAttribute("src");
    var shown = parseInt((src.split("n=")[1] || "0"), 10);
    var instance = document.body.dataset.instance || "";
    if (newestFrame > shown || (force && src.indexOf("i=" + instance + "&") < 0)) {
      img.src = src.replace(/\?.*$/, "") + "?i=" + encodeURIComponent(instance) + "&n=" + newestFrame;
    }
  }

  function refresh() {
    if (typing()) { deferred = true; return; }
    if (busy) { again = true; return; }
    busy = true;
    // X-Live: a refresh for news leaves the messages of the phone's own last action for its answer.
    fetch(location.pathname + location.search, { headers: { "X-Partial": "1", "X-Live": "1" },
                                                  credentials: "same-origin" })
      .then(function (r) { offline(false); return r.ok && !r.redirected ? r.text() : null; })
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
    // A form that changes the whole page (this phone's screen settings) is sent as a plain form.
    if (form.hasAttribute("data-whole-page")) { return; }
    var button = ev.submitter;
    if (button && button.dataset.confirm && !window.confirm(button.dataset.confirm)) {
      ev.preventDefault();
      return;
    }
    ev.preventDefault();
    if (form.dataset.busy) { return; }  // a double tap sends once; the key would make it harmless anyway
    form.dataset.busy = "1";
    // Only the game's own actions: the simulated table's buttons are pressed quickly on purpose.
    // The "again" question answers for the form it repeats.
    var asked = form.closest(".flash");
    // A trade proposal's answer too: the form is at the foot of a long page.
    var sig = !form.closest("#main") || !/\/(do|trades\/propose)$/.test(form.getAttribute("action") || "") ? "" :
      asked ? (asked.dataset.after || "") : signature(form);
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
      offline(false);
      if (r.redirected) {
        var url = new URL(r.url);
        if (url.pathname + url.search !== location.pathname + location.search) {
          // Another page (after joining, a new game…): load it whole, with its own stream.
          location.assign(url.pathname + url.search);
          return null;
        }
      }
      return r.text();
    }).then(function (html) {
      if (html !== null) {
        spent = sig ? { sig: sig, until: Date.now() + SPENT_MS } : null;
        swap(html, false, sig);
      }
    })
      .catch(function () { delete form.dataset.busy; offline(true); })
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
    var voice = document.getElementById("table-voice");
    var table = voice && voice.dataset.on === "1" ? voice : null;
    if (!table && !(readAloud() && !document.querySelector("[data-table-page]"))) { return; }
    var short = table && table.dataset.short === "1";  // the table's short voice: only names and amounts
    var text = actions.map(function (a) { return (short && a.say_short) || a.say || ""; }).filter(Boolean).join(" ");
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
    // Every connection starts with hello: after a reconnect the page is drawn again (it may have missed
    // news), and a new instance of the program (a restart) starts its frame numbers again.
    stream.addEventListener("hello", function (ev) {
      var hello = JSON.parse(ev.data);
      var again = connected;
      connected = true;
      document.documentElement.dataset.connected = "yes";  // the stream is open: news from now on arrives
      offline(false);
      if (hello.instance !== document.body.dataset.instance) {
        document.body.dataset.instance = hello.instance;
        newestFrame = hello.frame || 0;
        showFrame(true);
        again = true;
      }
      if (again) { refresh(); }
    });
    stream.addEventListener("error", function () {
      // Still trying (not refused for good, as too many streams are): the table is not answering.
      if (stream.readyState === EventSource.CONNECTING) { offline(true); }
    });
    stream.addEventListener("state", function (ev) {
      var data = JSON.parse(ev.data);
      if (!data.resync) { speak(data.actions); }
      var shown = main() ? main().dataset.state : "";
      if (shown !== data.game + "-" + data.seq) { refresh(); }
    });
    stream.addEventListener("trades", refresh);
    stream.addEventListener("log", refresh);  // the table added a line (a tag re-taught)
    stream.addEventListener("role", refresh);  // the banker page shows the table's answer
    // The table's voice changed (on a phone or at the table): the simulated table's next sentence uses it.
    stream.addEventListener("speech", function (ev) {
      var voice = document.getElementById("table-voice");
      var now = JSON.parse(ev.data);
      if (!voice || !now) { return; }
      voice.dataset.on = now.on ? "1" : "0";
      voice.dataset.volume = String(now.volume);
      voice.dataset.voice = now.voice;
      voice.dataset.short = now.short ? "1" : "0";
    });
    stream.addEventListener("frame", function (ev) {
      newestFrame = Math.max(newestFrame, parseInt(ev.data, 10) || 0);
      showFrame();
    });
    document.documentElement.dataset.stream = "on";
  }
})();
