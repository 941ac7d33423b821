import { Text } from '@mantine/core';
import { copyrightLine } from '../lib/texts';

export function Copyright() {
  return (
    <Text component="footer" size="xs" c="dimmed" ta="center" py="md">
      {copyrightLine()}
    </Text>
  );
}
