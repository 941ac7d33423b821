import { Box, Container } from '@mantine/core';
import { Outlet } from 'react-router';
import { Logo } from '../../components/logo';

/** Reset layout (docs/product.md §2): a logo header only. */
export function Component() {
  return (
    <Box mih="100vh" bg="gray.0">
      <Box
        component="header"
        h={60}
        px="lg"
        bg="white"
        style={{ display: 'flex', alignItems: 'center', borderBottom: '1px solid var(--mantine-color-gray-3)' }}
      >
        <Logo />
      </Box>
      <Container size={560} py={48}>
        <Outlet />
      </Container>
    </Box>
  );
}
