import { useMediaQuery } from '@mantine/hooks';

/** A phone: the console's one-column layouts (docs/console.md "Phones"); the same width the lists turn into cards at. */
export const PHONE_MEDIA = '(max-width: 600px)';

/** True on a phone-wide screen, already on the first render (no desk layout flashing first). */
export const usePhone = () => useMediaQuery(PHONE_MEDIA, false, { getInitialValueInEffect: false });
