import { PageHeader } from '../../../components/page-header';
import { GroupManager } from '../../../features/groups/group-manager';
import { groupTexts } from '../../../features/groups/texts';

/** `/car/car_groups`: the company's vehicle groups (拠点・部署, docs/groups.md), for managers and administrators. */
export function Component() {
  return (
    <>
      <PageHeader title={groupTexts.title} description={groupTexts.description} />
      <GroupManager />
    </>
  );
}
