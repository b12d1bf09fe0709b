/** The PDFs' look: page margins and the footer's height (points), the standard fonts, type sizes and colours. */
export const PAGE = { margin: 50, footer: 46 } as const;
export const FONT = { regular: 'Helvetica', bold: 'Helvetica-Bold' } as const;
export const SIZE = { body: 9, small: 7.5, heading: 11, title: 20 } as const;
export const COLOR = { text: '#111111', muted: '#555555', rule: '#bbbbbb', band: '#eeeeee' } as const;
