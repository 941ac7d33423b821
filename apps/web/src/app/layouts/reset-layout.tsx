import { Box, Container } from '@mantine/core';
import { Outlet } from 'react-router';
import { Logo } from '../../components/logo';

/** Reset layout (docs/product.md §2): a logo header only. */
export function Component() {
  return (
    <Box mih="100vh" bg="var(--app-surface)">
      <Box
        component="header"
        h={60}
        px="lg"
        bg="var(--mantine-color-body)"
        style={{ display: 'flex', alignItems: 'center', borderBottom: '1px solid var(--app-border)' }}
      >
        <Logo />
      </Box>
      <Container size={560} py={48}>
        <Outlet />
      </Container>
    </Box>
  );
}
