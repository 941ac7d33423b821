import { errorMessages } from '@fleet/contract/messages';
import { Button, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { ApiClientError } from '../../lib/api-error';
import { isChunkLoadError, reloadForChunkError } from '../../lib/chunk-reload';
import { paths } from '../../lib/paths';
import { shellTexts } from '../../lib/texts';

const statusOf = (e: unknown) => (isRouteErrorResponse(e) ? e.status : e instanceof ApiClientError ? e.status : 500);
const messageOf = (e: unknown): string => {
  if (isRouteErrorResponse(e)) return typeof e.data === 'string' && e.data ? e.data : '';
  return e instanceof ApiClientError ? e.message : '';
};

/**
 * The error page (docs/product.md §2, §8): 404 says the page does not exist and links to
 * the vehicle list; anything else shows its message and links to login.
 */
export function ErrorPage() {
  const error = useRouteError();
  if (isChunkLoadError(error) && reloadForChunkError()) return null;
  const status = statusOf(error);
  const notFound = status === 404;
  return (
    <Center mih="100vh" bg="var(--app-surface)" p="md">
      <Paper p="xl" radius="lg" withBorder maw={520} w="100%">
        <Stack align="center" gap="md">
          <Text fz={64} fw={800} c="brand.6" lh={1}>
            {status}
          </Text>
          <Title order={1} size="h3" ta="center">
            {notFound ? errorMessages.pageNotFound : messageOf(error) || errorMessages.generic}
          </Title>
          <Button component={Link} to={notFound ? paths.car.list : paths.login}>
            {notFound ? shellTexts.error.backToTop : shellTexts.error.toLogin}
          </Button>
        </Stack>
      </Paper>
    </Center>
  );
}
