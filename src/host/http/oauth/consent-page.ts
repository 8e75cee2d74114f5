/** How often the consent page asks again whether it was approved, seconds. */
export const CONSENT_REFRESH_S = 2;

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Headers of every HTML page the authorization server sends: no script, no framing, no caching. */
export const PAGE_HEADERS: Record<string, string> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

function page(title: string, body: string, refreshUrl?: string): string {
  const refresh = refreshUrl
    ? `<meta http-equiv="refresh" content="${CONSENT_REFRESH_S};url=${escapeHtml(refreshUrl)}">`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
${refresh}<title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36em;margin:3em auto;padding:0 1em;color:#222}
.code{font:700 3em/1.2 ui-monospace,monospace;letter-spacing:.1em}code{background:#eee;padding:.1em .3em}</style>
</head><body>
${body}
</body></html>
`;
}

/**
 * The consent page: which client asks, where the code will go, and the 2-digit number the user
 * confirms with `droidbus approve NN` on the machine that runs the droidbus host. It refreshes
 * itself (no script) until the host has a decision.
 */
export function consentPage(view: {
  code: string;
  clientName: string;
  redirectHost: string;
  continueUrl: string;
}): string {
  return page(
    'Approve droidbus access',
    `<h1>Allow <em>${escapeHtml(view.clientName)}</em> to use droidbus?</h1>
<p>It will get every droidbus tool this host serves: builds, logcat, and the apps, screens and
input of the connected Android devices. The authorization goes back to
<strong>${escapeHtml(view.redirectHost)}</strong>.</p>
<p>Approval code:</p>
<p class="code" id="approval-code">${escapeHtml(view.code)}</p>
<p>On the machine that runs the droidbus host, run:</p>
<p><code>droidbus approve ${escapeHtml(view.code)}</code></p>
<p>Only approve if this page shows the same number and you started this connection yourself.
This page continues by itself once you have approved (or denied with
<code>droidbus approve --deny ${escapeHtml(view.code)}</code>).</p>`,
    view.continueUrl,
  );
}

/** A page that ends the flow without a redirect (unknown request, expired, bad client). */
export function messagePage(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`);
}
