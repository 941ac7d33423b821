import { Badge, createTheme, type MantineColorsTuple } from '@mantine/core';

const brand: MantineColorsTuple = [
  '#e8f1ff',
  '#d0e0ff',
  '#a0bffb',
  '#6d9cf8',
  '#4380f5',
  '#286df4',
  '#1c64d9',
  '#0f53c2',
  '#034aae',
  '#003f9a',
];

/**
 * Breakpoints of docs/product.md §9: 768, 1023, 1216 and 1408 px. Mantine's `sm` starts the wide layout
 * (min-width), and 768 px itself is still small (header 40 px up to 768, docs/product.md §9): so 769 px.
 */
export const theme = createTheme({
  primaryColor: 'brand',
  colors: { brand },
  primaryShade: 6,
  fontFamily:
    '"Hiragino Kaku Gothic ProN", "Hiragino Sans", "BIZ UDPGothic", "Noto Sans JP", "IPAPGothic", "IPAGothic", Meiryo, system-ui, sans-serif',
  headings: { fontWeight: '700' },
  defaultRadius: 'md',
  breakpoints: { xs: '36em', sm: '48.0625em', md: '63.9375em', lg: '76em', xl: '88em' },
  components: {
    // Status badges sit in table cells: they keep their whole label instead of shrinking to "…".
    Badge: Badge.extend({
      styles: { root: { flexShrink: 0, maxWidth: 'none', overflow: 'visible' }, label: { overflow: 'visible' } },
    }),
  },
});
