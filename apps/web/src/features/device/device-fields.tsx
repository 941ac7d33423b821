import { deviceExistCheck, deviceLabels as L } from '@fleet/contract';
import { ActionIcon, Group, PasswordInput, Tooltip } from '@mantine/core';
import { IconWand } from '@tabler/icons-react';
import { useState } from 'react';
import { useFormContext } from 'react-hook-form';
import { TextField } from '../../components/edit-shell/fields';
import { FormSection } from '../../components/edit-shell/form-section';
import { GeneratedIdField } from '../../components/edit-shell/generated-id-field';
import { generateCheckedId } from '../../lib/use-id-generator';
import { generateTerminalSecret } from './terminal-secret';

/** The fields of the GPS terminal form (SPEC.md §3), shared by the terminal screens and the wizard ('device.' prefix). */
export function DeviceFields({ prefix = '', mode }: { prefix?: string; mode: 'add' | 'edit' }) {
  const n = (field: string) => `${prefix}${field}`;
  return (
    <>
      <FormSection title="端末情報">
        {mode === 'add' ? (
          <GeneratedIdField name={n('car_device_id')} label={L.car_device_id} generate={() => generateCheckedId(deviceExistCheck, 'car_device_id')} />
        ) : (
          <TextField name={n('car_device_id')} label={L.car_device_id} required disabled />
        )}
        <TerminalPasswordField name={n('password')} mode={mode} />
        <TextField name={n('car_data_id')} label={L.car_data_id} required placeholder="15桁の数字" />
        <TextField name={n('car_type')} label={L.car_type} />
      </FormSection>
      <FormSection title="ネットワーク">
        <TextField name={n('ipaddr')} label={L.ipaddr} placeholder="10.20.0.10" />
        <TextField name={n('macaddr')} label={L.macaddr} placeholder="02:1A:7F:00:00:01" />
      </FormSection>
    </>
  );
}

/** The terminal's secret for the device protocol, with a button that makes a random 16-character one and shows it. */
function TerminalPasswordField({ name, mode }: { name: string; mode: 'add' | 'edit' }) {
  const { register, setValue, getFieldState, formState } = useFormContext();
  const [visible, setVisible] = useState(false);
  const generate = (
    <Tooltip label="ランダムなパスワードを生成">
      <ActionIcon
        variant="default"
        size="input-sm"
        aria-label="パスワードを生成"
        onClick={() => {
          setValue(name, generateTerminalSecret(), { shouldValidate: true, shouldDirty: true });
          setVisible(true);
        }}
      >
        <IconWand size={16} />
      </ActionIcon>
    </Tooltip>
  );
  return (
    <PasswordInput
      {...register(name)}
      label={L.password}
      withAsterisk={mode === 'add'}
      placeholder={mode === 'edit' ? '変更しない場合は空欄' : '8〜32文字'}
      autoComplete="new-password"
      visible={visible}
      onVisibilityChange={setVisible}
      error={getFieldState(name, formState).error?.message}
      inputContainer={(input) => (
        <Group gap="xs" wrap="nowrap">
          <div style={{ flex: 1 }}>{input}</div>
          {generate}
        </Group>
      )}
    />
  );
}
