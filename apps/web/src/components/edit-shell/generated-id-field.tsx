import { errorMessages } from '@fleet/contract';
import { ActionIcon, Tooltip } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { useFormContext } from 'react-hook-form';
import { TextField } from './fields';

/** An id field filled on the client (docs/product.md §5), editable, with a button that draws a new, unused one. */
export function GeneratedIdField({
  name,
  label,
  generate,
}: {
  name: string;
  label: string;
  generate(): Promise<string>;
}) {
  const form = useFormContext();
  const [busy, setBusy] = useState(false);
  const regenerate = async () => {
    setBusy(true);
    try {
      form.setValue(name, await generate(), { shouldValidate: true, shouldDirty: true });
    } catch {
      form.setError(name, { message: errorMessages.idGenerationFailed });
    } finally {
      setBusy(false);
    }
  };
  return (
    <TextField
      name={name}
      label={label}
      required
      rightSection={
        <Tooltip label="IDを再生成">
          <ActionIcon variant="subtle" color="gray" aria-label="IDを再生成" loading={busy} onClick={regenerate}>
            <IconRefresh size={16} />
          </ActionIcon>
        </Tooltip>
      }
    />
  );
}
