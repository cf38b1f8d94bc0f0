import type { Root, RootContent } from 'mdast';
import Markdown, { type Components } from 'react-markdown';

const LINK_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/** Absolute http(s) and mailto addresses only: `javascript:`, `data:` or a path on this site are no link. */
function linkable(url: string): string | null {
  try {
    const parsed = new URL(url);
    return LINK_PROTOCOLS.has(parsed.protocol) ? parsed.href : null;
  } catch {
    return null; // relative, or not an address at all
  }
}

/**
 * Raw HTML is never rendered, but the title of a `<details><summary>` fold (Margin's summary folds
 * the points it did not post under one) is kept as a bold line of text, so the list under it does not
 * read as part of the list before it.
 */
function keepSummaryTitles() {
  return (tree: Root) => {
    tree.children = tree.children.map((node): RootContent => {
      const title = node.type === 'html' ? /<summary>([^<]*)<\/summary>/i.exec(node.value)?.[1]?.trim() : undefined;
      return title
        ? { type: 'paragraph', children: [{ type: 'strong', children: [{ type: 'text', value: title }] }] }
        : node;
    });
  };
}

const components: Components = {
  // The text sits under a section's h2: its own headings never rise above h3.
  h1: ({ children }) => <h3>{children}</h3>,
  h2: ({ children }) => <h3>{children}</h3>,
  // A link the address check refused has no href: its text stays, as text.
  a: ({ href, children }) => {
    if (!href) return <>{children}</>;
    const web = !href.startsWith('mailto:');
    return (
      <a href={href} rel="noopener noreferrer" {...(web ? { target: '_blank' } : {})}>
        {children}
      </a>
    );
  },
};

/**
 * Markdown from a source the console does not trust (a review summary quotes what a model wrote),
 * rendered inert: raw HTML dropped, no images (each would be fetched from wherever the text says),
 * links only to http(s) and mailto addresses, opened without a handle on this page.
 */
export function UntrustedMarkdown({ text, className }: { text: string; className?: string }) {
  return (
    <div className={className}>
      <Markdown
        skipHtml
        disallowedElements={['img']}
        urlTransform={linkable}
        remarkPlugins={[keepSummaryTitles]}
        components={components}
      >
        {text}
      </Markdown>
    </div>
  );
}
