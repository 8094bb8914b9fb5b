/**
 * WCAG 2.x contrast of two `#rgb` / `#rrggbb` colours (https://www.w3.org/TR/WCAG22/#dfn-contrast-ratio):
 * 1 for the same colour, 21 for black on white. Body text needs at least 4.5 (success criterion 1.4.3).
 */
export function contrastRatio(foreground: string, background: string): number {
  const [lighter, darker] = [relativeLuminance(foreground), relativeLuminance(background)].sort((a, b) => b - a) as [number, number];
  return (lighter + 0.05) / (darker + 0.05);
}

function relativeLuminance(color: string): number {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color)?.[1];
  if (hex === undefined) throw new TypeError(`not a #rgb or #rrggbb colour: ${color}`);
  const full = hex.length === 3 ? [...hex].map((digit) => digit + digit).join('') : hex;
  const [r, g, b] = [0, 2, 4].map((at) => {
    const channel = Number.parseInt(full.slice(at, at + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * The custom properties a stylesheet sets on `:root`, in the light scheme and in the dark one (its
 * `prefers-color-scheme: dark` block over the light values).
 */
export function rootColours(css: string): { light: Record<string, string>; dark: Record<string, string> } {
  const darkStart = css.indexOf('@media (prefers-color-scheme: dark)');
  const light = declarations(css.slice(0, darkStart === -1 ? undefined : darkStart));
  const dark = darkStart === -1 ? light : { ...light, ...declarations(css.slice(darkStart, css.indexOf('\n}', darkStart))) };
  return { light, dark };
}

function declarations(block: string): Record<string, string> {
  const root = block.slice(block.indexOf(':root'));
  return Object.fromEntries([...root.slice(0, root.indexOf('}')).matchAll(/(--[a-z-]+):\s*([^;]+);/g)].map((match) => [match[1]!, match[2]!.trim()]));
}
