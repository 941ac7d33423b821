import '@mantine/dates/styles.css';
import 'dayjs/locale/ja';
import { normalizeDateText } from '@fleet/contract';
import { DateInput, DatesProvider } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/**
 * Date and date-time inputs in the console's own format (YYYY/MM/DD HH:mm, docs/product.md §9), whatever
 * the browser's locale: typed (forgiving as the contract is: 2026/4/3 9:05, full-width digits) or picked
 * on a Japanese calendar (Sunday first). Values are Japan-time wall-clock text without a zone, as the
 * server reads them (parseDateBound): 'YYYY-MM-DDTHH:mm' for a date-time, 'YYYY-MM-DD' for a date, '' for
 * none — the same values the browser's own date fields gave, so the screens' state did not change.
 */
const LOCAL = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2})(:\d{2})?)?$/;

/** Mantine's value ('YYYY-MM-DD HH:mm:ss' / 'YYYY-MM-DD') from ours, or null. */
const toPicker = (v: string, withTime: boolean): string | null => {
  const m = LOCAL.exec(normalizeDateText(v));
  if (!m) return null;
  return withTime ? `${m[1]} ${m[2] ?? '00:00'}:00` : m[1]!;
};
/** Ours from Mantine's value. */
const fromPicker = (v: string | null, withTime: boolean): string => {
  const m = v ? LOCAL.exec(v) : null;
  if (!m) return '';
  return withTime ? `${m[1]}T${m[2] ?? '00:00'}` : m[1]!;
};

interface DateFieldProps {
  label: string;
  value: string;
  onChange(value: string): void;
  error?: ReactNode;
  required?: boolean;
  clearable?: boolean;
  w?: number;
  /** The last day that may be picked (YYYY-MM-DD). */
  max?: string;
  'data-testid'?: string;
}

function JapaneseDateInput({ withTime, ...p }: DateFieldProps & { withTime: boolean }) {
  return (
    <DatesProvider settings={{ locale: 'ja', firstDayOfWeek: 0 }}>
      <DateInput
        label={p.label}
        value={toPicker(p.value, withTime)}
        onChange={(v) => p.onChange(fromPicker(v, withTime))}
        dateParser={(text) => toPicker(text, withTime)}
        valueFormat={withTime ? 'YYYY/MM/DD HH:mm' : 'YYYY/MM/DD'}
        placeholder={withTime ? 'YYYY/MM/DD HH:mm' : 'YYYY/MM/DD'}
        withTime={withTime}
        monthLabelFormat="YYYY年M月"
        yearLabelFormat="YYYY年"
        error={p.error}
        required={p.required}
        withAsterisk={p.required}
        clearable={p.clearable}
        maxDate={p.max}
        leftSection={<IconCalendar size={16} aria-hidden />}
        w={p.w ?? (withTime ? 215 : 160)}
        data-testid={p['data-testid']}
      />
    </DatesProvider>
  );
}

/** A date and time: YYYY/MM/DD HH:mm. */
export const DateTimeField = (p: DateFieldProps) => <JapaneseDateInput {...p} withTime />;

/** A day: YYYY/MM/DD. */
export const DateField = (p: DateFieldProps) => <JapaneseDateInput {...p} withTime={false} />;
