// The "Relatório" link of the GM's and the players' pages. The report opens with this page's
// token POSTed in a form, never in the address: an address stays in the history, the address bar,
// the Referer and the server's logs. Without scripts the link opens /relatorio, which says where
// to open it from.

/** Make `link` POST `token()` (read at the click) to its address, in the link's target. */
export function reportLink(link, token) {
  link.addEventListener("click", (event) => {
    const value = token();
    if (!value) return;
    event.preventDefault();
    const form = document.createElement("form");
    form.method = "post";
    form.action = link.getAttribute("href");
    form.target = link.getAttribute("target") || "_self";
    form.hidden = true;
    const field = document.createElement("input");
    field.type = "hidden";
    field.name = "token";
    field.value = value;
    form.append(field);
    document.body.append(form);
    form.submit();
    form.remove();
  });
}
