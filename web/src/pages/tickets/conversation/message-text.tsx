import type { ReactNode } from 'react';

/**
 * WhatsApp's text marks (*bold*, _italic_, ~strike~, ```mono```) and links, as React elements:
 * the text is never parsed as HTML.
 */
const MARKS = /(```[^`]+```|\*[^*\n]+\*|_[^_\n]+_|~[^~\n]+~|https?:\/\/[^\s<]+)/g;

function mark(token: string, key: number, inline: boolean): ReactNode {
  if (token.startsWith('```')) return <code key={key}>{token.slice(3, -3)}</code>;
  if (token.startsWith('http')) {
    if (inline) return token;
    return (
      <a key={key} href={token} target="_blank" rel="noopener noreferrer">
        {token}
      </a>
    );
  }
  const inner = token.slice(1, -1);
  if (token.startsWith('*')) return <strong key={key}>{inner}</strong>;
  if (token.startsWith('_')) return <em key={key}>{inner}</em>;
  return <del key={key}>{inner}</del>;
}

/**
 * `inline` is the one-line form of a preview (a ticket row): line breaks read as spaces, so the
 * line ends in an ellipsis, and links are plain text (the row is itself a link).
 */
export function MessageText({ text, inline = false }: { text: string; inline?: boolean }) {
  const parts = (inline ? text.replace(/\s*\n\s*/g, ' ') : text).split(MARKS);
  return <>{parts.map((part, i) => (i % 2 === 1 ? mark(part, i, inline) : part))}</>;
}

/** Name and number of a shared contact card (its FN and first TEL lines). */
export function parseVcard(vcard: string): { name: string; number: string } {
  const lines = vcard.split(/\r?\n/);
  const value = (prefix: RegExp) => {
    const line = lines.find((l) => prefix.test(l));
    return line ? line.slice(line.indexOf(':') + 1).trim() : '';
  };
  return { name: value(/^FN[:;]/i), number: value(/^(item\d+\.)?TEL[:;]/i) };
}
