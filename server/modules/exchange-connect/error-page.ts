/** HTML special characters, so text is shown as text. */
function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * The plain page the OAuth callback shows when quick connect cannot finish. No script, no
 * styles from elsewhere; every piece of text is escaped before it is placed in the fixed template.
 */
export function connectErrorPage(message: string): string {
  const parts = {
    title: 'The exchange could not be connected',
    message: escapeHtml(message),
    link: '/auth/register',
    linkText: 'Back to registration',
  };
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${parts.title}</title></head>`,
    '<body>',
    `<main><h1>${parts.title}</h1>`,
    `<p>${parts.message}</p>`,
    `<p><a href="${parts.link}">${parts.linkText}</a></p></main>`,
    '</body>',
    '</html>',
  ].join('\n');
}
