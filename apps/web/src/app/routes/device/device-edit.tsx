import { Skeleton } from '@mantine/core';
import { QueryState } from '../../../components/edit-shell/detail-shell';
import { PageHeader } from '../../../components/page-header';
import { useDeviceDetail } from '../../../features/device/api';
import { DeviceFormView } from '../../../features/device/device-form';
import { deviceTexts } from '../../../features/device/texts';
import { useSelection } from '../../../lib/use-selection';

export function Component() {
  const id = useSelection('car_device_id');
  const q = useDeviceDetail(id);
  return (
    <>
      <PageHeader title={deviceTexts.editTitle} />
      <QueryState query={q} missing={!id} loading={<Skeleton h={320} maw={880} />}>
        {(d) => (
          <DeviceFormView
            mode="edit"
            initial={{
              car_device_id: d.car_device_id,
              password: '',
              ipaddr: d.ipaddr,
              macaddr: d.macaddr,
              car_type: d.car_type,
              car_data_id: d.car_data_id,
              protocol: d.protocol,
              cmd_cut_text: d.cmd_cut_text,
              cmd_restore_text: d.cmd_restore_text,
            }}
          />
        )}
      </QueryState>
    </>
  );
}
