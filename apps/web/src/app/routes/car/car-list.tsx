import { PageHeader } from '../../../components/page-header';
export function Component() {
  return <PageHeader title="車両一覧" />;
}
