// The 403 page of /mestre (no token, or a refused one). If this browser kept a GM token when the
// GM page last opened (mestre.js stores it), go back to /mestre with it; otherwise the page
// already explains where the link is. A token the server just refused is forgotten and never
// retried, so a stale token can't loop. A link with the token in its fragment (`#token=…`,
// never sent to the server) is kept first, then opened the same way.
(function () {
  const KEY = "mesa.mestre.token";
  const storage = {
    get() { try { return window.localStorage.getItem(KEY); } catch (_e) { return null; } },
    set(value) { try { window.localStorage.setItem(KEY, value); } catch (_e) { /* private */ } },
    remove() { try { window.localStorage.removeItem(KEY); } catch (_e) { /* private mode */ } },
  };
  const linked = new URLSearchParams(window.location.hash.slice(1)).get("token");
  if (linked) storage.set(linked);
  const given = new URLSearchParams(window.location.search).get("token");
  const stored = storage.get();
  if (stored && given && stored === given) {
    storage.remove(); // this very token was just refused
    return;
  }
  if (!stored) return;
  const message = document.getElementById("message");
  const opening = document.getElementById("opening"); // its words, from the server
  if (message && opening) message.textContent = opening.dataset.text;
  const page = new URL("/mestre", window.location.origin);
  page.searchParams.set("token", stored);
  window.location.replace(page.pathname + page.search);
}());
