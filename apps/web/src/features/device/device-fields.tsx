import {
  defaultCommandTexts,
  deviceExistCheck,
  deviceLabels as L,
  terminalProtocolLabels,
  terminalProtocols,
  type TerminalProtocol,
} from '@fleet/contract';
import { ActionIcon, Group, PasswordInput, Tooltip } from '@mantine/core';
import { IconWand } from '@tabler/icons-react';
import { useState } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { SelectField, TextField } from '../../components/edit-shell/fields';
import { FormSection } from '../../components/edit-shell/form-section';
import { GeneratedIdField } from '../../components/edit-shell/generated-id-field';
import { generateCheckedId } from '../../lib/use-id-generator';
import { generateTerminalSecret } from './terminal-secret';
import { deviceTexts } from './texts';

/** The fields of the GPS terminal form (docs/product.md §3), shared by the terminal screens and the wizard ('device.' prefix). */
export function DeviceFields({ prefix = '', mode }: { prefix?: string; mode: 'add' | 'edit' }) {
  const n = (field: string) => `${prefix}${field}`;
  return (
    <>
      <FormSection title={deviceTexts.fields.terminal}>
        {mode === 'add' ? (
          <GeneratedIdField
            name={n('car_device_id')}
            label={L.car_device_id}
            generate={() => generateCheckedId(deviceExistCheck, 'car_device_id')}
          />
        ) : (
          <TextField name={n('car_device_id')} label={L.car_device_id} required disabled />
        )}
        <TerminalPasswordField name={n('password')} mode={mode} />
        <TextField name={n('car_data_id')} label={L.car_data_id} required placeholder={deviceTexts.fields.imeiHint} />
        <TextField name={n('car_type')} label={L.car_type} />
      </FormSection>
      <ProtocolFields prefix={prefix} />
      <FormSection title={deviceTexts.fields.network}>
        <TextField
          name={n('ipaddr')}
          label={L.ipaddr}
          placeholder={deviceTexts.fields.ipExample}
          description={deviceTexts.fields.ipHint}
        />
        <TextField name={n('macaddr')} label={L.macaddr} placeholder={deviceTexts.fields.macExample} />
      </FormSection>
    </>
  );
}

const protocolOptions = terminalProtocols.map((value) => ({ value, label: terminalProtocolLabels[value] }));

/** The protocol the terminal speaks and, for the binary ones with a relay, the immobiliser command texts. */
function ProtocolFields({ prefix }: { prefix: string }) {
  const protocol = useWatch({ name: `${prefix}protocol` }) as TerminalProtocol | undefined;
  const defaults = protocol ? defaultCommandTexts[protocol] : undefined;
  return (
    <FormSection title={L.protocol}>
      <SelectField
        name={`${prefix}protocol`}
        label={L.protocol}
        data={protocolOptions}
        description={protocol === 'osmand' ? deviceTexts.osmandNoCommands : undefined}
      />
      {defaults && (
        <>
          <TextField
            name={`${prefix}cmd_cut_text`}
            label={L.cmd_cut_text}
            placeholder={defaults.cut}
            description={deviceTexts.commandTextHint}
          />
          <TextField
            name={`${prefix}cmd_restore_text`}
            label={L.cmd_restore_text}
            placeholder={defaults.restore}
            description={deviceTexts.commandTextHint}
          />
        </>
      )}
    </FormSection>
  );
}

/** The terminal's secret for the device protocol, with a button that makes a random 16-character one and shows it. */
function TerminalPasswordField({ name, mode }: { name: string; mode: 'add' | 'edit' }) {
  const { register, setValue, getFieldState, formState } = useFormContext();
  const [visible, setVisible] = useState(false);
  const generate = (
    <Tooltip label={deviceTexts.fields.generateHint}>
      <ActionIcon
        variant="default"
        size="input-sm"
        aria-label={deviceTexts.fields.generate}
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
      placeholder={mode === 'edit' ? deviceTexts.fields.passwordKeep : deviceTexts.fields.passwordLength}
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
