const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => escapes[char] ?? char);
}

const style = `body{font-family:system-ui,sans-serif;background:#f4f5f7;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center}
main{background:#fff;border-radius:12px;box-shadow:0 2px 12px rgba(0,0,0,.12);padding:32px;max-width:420px}
h1{font-size:20px;margin:0 0 12px}ul{padding-left:20px}button{font-size:15px;padding:10px 18px;border-radius:8px;border:0;cursor:pointer;margin-right:8px}
.allow{background:#f7a600;color:#111}.deny{background:#e4e6eb;color:#111}.note{color:#555;font-size:13px}`;

/** The consent page: plain HTML form (the app's CSP allows no inline script), posted back to the same URL. */
export function consentPage(input: { exchange: string; appName: string; hidden: Record<string, string> }): string {
  const fields = Object.entries(input.hidden)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n      ');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Authorize ${escapeHtml(input.appName)} - ${escapeHtml(input.exchange)} sandbox</title><style>${style}</style></head>
<body>
  <main>
    <h1>${escapeHtml(input.appName)} wants to connect to your ${escapeHtml(input.exchange)} sandbox account</h1>
    <p>If you authorize, an API key is created for it with these permissions:</p>
    <ul><li>Read account, orders and positions</li><li>Trade (place and cancel orders)</li><li>No withdrawal</li></ul>
    <p class="note">The key only works from the address of the application that collects it. This is the built-in sandbox: no real funds are involved.</p>
    <form method="post" action="">
      ${fields}
      <button class="allow" type="submit" name="decision" value="allow">Authorize</button>
      <button class="deny" type="submit" name="decision" value="deny">Cancel</button>
    </form>
  </main>
</body>
</html>`;
}

export function errorPage(message: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Authorization failed</title><style>${style}</style></head>
<body><main><h1>Authorization failed</h1><p>${escapeHtml(message)}</p></main></body>
</html>`;
}
