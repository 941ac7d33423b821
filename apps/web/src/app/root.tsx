import './accessibility.css';
import { Center, Loader } from '@mantine/core';
import { Outlet } from 'react-router';
import { LoadingBar } from '../components/loading-bar';
import { useDocumentTitle } from './screen-guard';

/** The root frame: the top loading bar above every layout; the tab title follows the screen. */
export function Root() {
  useDocumentTitle();
  return (
    <>
      <LoadingBar />
      <Outlet />
    </>
  );
}

/** Shown while the first route's code and session check load. */
export function RootFallback() {
  return (
    <Center h="100vh">
      <Loader aria-label="読み込み中" />
    </Center>
  );
}
