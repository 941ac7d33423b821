import { sessionMessages } from '@fleet/contract';
import { Alert, Button, Paper, Stack, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { paths } from '../../lib/paths';
import { shellTexts } from '../../lib/texts';

/** `/warning`: where the session guard sends a missing or invalid session (docs/product.md §6). */
export function Component() {
  const [params] = useSearchParams();
  const message = params.get('reason') === 'invalid' ? sessionMessages.invalidToken : sessionMessages.missingSession;
  return (
    <Paper p="xl" radius="lg" withBorder>
      <Stack>
        <Title order={2} size="h3">
          {shellTexts.warning.title}
        </Title>
        <Alert color="orange" icon={<IconAlertTriangle size={18} />} role="alert" data-testid="warning-message">
          {message}
        </Alert>
        <Button component={Link} to={paths.login} replace>
          {shellTexts.error.toLogin}
        </Button>
      </Stack>
    </Paper>
  );
}
