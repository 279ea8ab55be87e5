// Method logos, drawn by the sandbox itself (no outside address): a small SVG badge per method and
// per method option, at the LogoURL the methods API gives.
import type { MethodRecord } from '../../store/records';
import { logoPath } from '../../wire/methods';

const COLOURS = ['#1d5bd6', '#cc0066', '#0a7f5a', '#b34700', '#6b3fa0', '#0b6e99', '#a31f34', '#3d5a1e'];

const xml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

function badge(label: string, colour: string): string {
  const text = xml(label.length > 22 ? `${label.slice(0, 21)}…` : label);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="48" viewBox="0 0 160 48" role="img" aria-label="${text}">` +
    `<rect width="160" height="48" rx="8" fill="${colour}"/>` +
    `<text x="80" y="30" font-family="Helvetica,Arial,sans-serif" font-size="15" font-weight="700" fill="#fff" text-anchor="middle">${text}</text></svg>`
  );
}

/** The SVG behind a logo path of the catalogue, or undefined when no method or option has that path. */
export function logoSvg(methods: MethodRecord[], path: string): string | undefined {
  for (const m of methods) {
    const colour = COLOURS[m.methodId % COLOURS.length]!;
    if (logoPath(m) === path) return badge(m.name, colour);
    const option = (m.catalogue?.Options ?? []).find((o) => logoPath(m, o) === path);
    if (option) return badge(`${m.name} · ${option.DisplayName}`, colour);
  }
  return undefined;
}
