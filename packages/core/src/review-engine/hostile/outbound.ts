/**
 * What a model wrote is made inert before it is posted: no one is @-mentioned by a bot, no image
 * or link leaks data to another host (a Markdown image URL is fetched by every reader's browser),
 * no HTML but `<details>`/`<summary>`, and a bounded length. Code blocks and spans are left exactly
 * as written (generics like `Array<string>` must survive). Hidden markers are added after this, by
 * the adapter.
 */
export const MAX_POSTED_CHARS = 6000;

const CODE = /(`{3,}[\s\S]*?`{3,}|`[^`\n]+`)/;

export function sanitizeOutbound(text: string, options: { allowedHost?: string | undefined } = {}): string {
  let out = text
    .split(CODE)
    .map((part, i) => (i % 2 === 1 ? part : sanitiseProse(part, options.allowedHost)))
    .join('');
  if (out.length > MAX_POSTED_CHARS) out = `${out.slice(0, MAX_POSTED_CHARS - 1)}…`;
  return out;
}

function sanitiseProse(text: string, allowedHost: string | undefined): string {
  return (
    text
      // Images to any host become their alt text and address as code.
      .replace(
        /!\[([^\]]*)\]\(([^)\s]+)[^)]*\)/g,
        (_m, alt: string, url: string) => `\`[image: ${alt || 'image'} ${url}]\``,
      )
      // Links to other hosts keep their text; the address goes into code.
      .replace(/(?<!!)\[([^\]]+)\]\(([^)\s]+)[^)]*\)/g, (m, label: string, url: string) =>
        sameHost(url, allowedHost) ? m : `${label} (\`${url}\`)`,
      )
      .replace(/<(https?:\/\/[^>\s]+)>/g, (m, url: string) => (sameHost(url, allowedHost) ? m : `\`${url}\``))
      // HTML tags other than details/summary are shown as text.
      .replace(/<(\/?)(?!details\b|summary\b)([a-zA-Z][^>]*)>/g, '&lt;$1$2&gt;')
      // Mentions become code spans, which no provider notifies.
      .replace(/(^|[^\w`])@([A-Za-z0-9](?:[\w.-]*[\w-])?)/g, '$1`@$2`')
  );
}

function sameHost(url: string, allowedHost: string | undefined): boolean {
  if (!allowedHost || !URL.canParse(url)) return false;
  return new URL(url).host.toLowerCase() === allowedHost.toLowerCase();
}
