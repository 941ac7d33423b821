import { Badge } from '@mantine/core';
import { accountTexts as T } from './texts';

/** エンジン制御権限 of an account, compact enough for a list cell. */
export function EngineControlBadge({ on }: { on: boolean }) {
  return (
    <Badge size="sm" variant={on ? 'light' : 'outline'} color={on ? 'teal' : 'gray'}>
      {on ? T.engineControlOn : T.engineControlOff}
    </Badge>
  );
}
