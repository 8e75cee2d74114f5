/**
 * The few pages the host writes itself (everything else is the built front end): no script and no
 * inline style, so the page's strict CSP holds for them too.
 */

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string, head = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(title)}</title>
${head}
</head>
<body>
${body}
</body>
</html>
`;
}

/** Shown without a session: how to log in. */
export function refusedPage(reason = 'You are not logged in to this droidbus host.'): string {
  return page(
    'droidbus — log in',
    `<main id="refused">
<h1>droidbus host</h1>
<p>${escapeHtml(reason)}</p>
<p>Open the one-time login link the host printed when it started, or run <code>droidbus ui</code> on this machine for a new one.</p>
</main>`,
  );
}

/** Sent with the session cookie: goes on to the page (a same-origin navigation, so the SameSite=Strict cookie goes along). */
export function loginPage(): string {
  return page(
    'droidbus — logged in',
    `<main><p>Logged in. <a href="./">Open the droidbus page</a>.</p></main>`,
    '<meta http-equiv="refresh" content="0;url=./">',
  );
}

/** The host runs from a checkout whose front end was never built. */
export function notBuiltPage(): string {
  return page(
    'droidbus — page not built',
    `<main><h1>droidbus host</h1><p>The page's files are missing: run <code>npm run build</code> in the droidbus checkout and restart the host.</p></main>`,
  );
}
