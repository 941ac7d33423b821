import { Box } from '@mantine/core';
import { Outlet } from 'react-router';
import { Copyright } from '../../components/copyright';

/** Index (login) layout (docs/product.md §2): a footer only. */
export function Component() {
  return (
    <Box
      mih="100vh"
      style={{
        display: 'flex',
        flexDirection: 'column',
        background:
          'linear-gradient(160deg, var(--mantine-color-brand-8) 0%, var(--mantine-color-brand-6) 45%, var(--app-surface) 45.1%)',
      }}
    >
      <Box style={{ flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center' }} p="md">
        <Outlet />
      </Box>
      <Copyright />
    </Box>
  );
}
