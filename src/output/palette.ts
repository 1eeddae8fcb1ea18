/** Distinct route colours (a qualitative palette that stays readable on white). */
const PALETTE = [
  '#1f77b4',
  '#d62728',
  '#2ca02c',
  '#9467bd',
  '#ff7f0e',
  '#17becf',
  '#8c564b',
  '#e377c2',
  '#7f7f7f',
  '#bcbd22',
  '#393b79',
  '#637939',
];

/** Past the palette, hues are spread by the golden angle so neighbours still differ. */
export function routeColor(position: number): string {
  const fixed = PALETTE[position];
  if (fixed !== undefined) return fixed;
  const hue = Math.round((position * 137.508) % 360);
  return `hsl(${hue}, 65%, 42%)`;
}
