// The 403 page of /mestre (no token, or a refused one). If this browser kept a GM token when the
// GM page last opened (mestre.js stores it), open /mestre with it, POSTed in a form (an address
// would keep it in the history, the address bar and the logs); otherwise the page already
// explains where the link is. A token the server just refused (the page is marked
// #token-recusado) is forgotten and never retried, so a stale token can't loop. A link with the
// token in its fragment (`#token=…`, never sent to the server) is kept first, then opened the
// same way. Submitted while the page loads, the form replaces this page's history entry.
(function () {
  const KEY = "mesa.mestre.token";
  const storage = {
    get() { try { return window.localStorage.getItem(KEY); } catch (_e) { return null; } },
    set(value) { try { window.localStorage.setItem(KEY, value); } catch (_e) { /* private */ } },
    remove() { try { window.localStorage.removeItem(KEY); } catch (_e) { /* private mode */ } },
  };
  const linked = new URLSearchParams(window.location.hash.slice(1)).get("token");
  if (linked) storage.set(linked);
  if (linked) window.history.replaceState(null, "", window.location.pathname);
  const given = new URLSearchParams(window.location.search).get("token"); // an old link's
  const stored = storage.get();
  const refused = document.getElementById("token-recusado") !== null;
  if (stored && refused && (!given || stored === given)) {
    storage.remove(); // this very token was just refused
    return;
  }
  if (!stored) return;
  const message = document.getElementById("message");
  const opening = document.getElementById("opening"); // its words, from the server
  if (message && opening) message.textContent = opening.dataset.text;
  const form = document.createElement("form");
  form.method = "post";
  form.action = "/mestre";
  form.hidden = true;
  const field = document.createElement("input");
  field.type = "hidden";
  field.name = "token";
  field.value = stored;
  form.append(field);
  document.body.append(form);
  form.submit();
}());
