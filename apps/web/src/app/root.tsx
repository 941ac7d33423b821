import { Outlet } from 'react-router';
import { LoadingBar } from '../components/loading-bar';

/** The root frame: the top loading bar above every layout. */
export function Root() {
  return (
    <>
      <LoadingBar />
      <Outlet />
    </>
  );
}
