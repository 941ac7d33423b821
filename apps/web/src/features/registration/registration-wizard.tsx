import { zodResolver } from '@hookform/resolvers/zod';
import {
  CarUserDeviceAddRequest,
  CarUserForm,
  carMessages,
  DeviceForm,
  errorMessages,
  fieldErrors,
  WizardCarForm,
  type CarUserDeviceAddInput,
} from '@fleet/contract';
import { Alert, Button, Group, Paper, Stack, Stepper } from '@mantine/core';
import { IconAlertCircle, IconArrowLeft, IconArrowRight, IconDeviceFloppy } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { FormProvider, useForm, type FieldPath } from 'react-hook-form';
import type { z } from 'zod';
import { ApiClientError } from '../../lib/api-client';
import { terminalInUse, useRegisterAll } from './api';
import { registrationTexts as T } from './texts';
import { WizardDone, type Registered } from './wizard-done';
import { WizardSummary } from './wizard-summary';

/** The three input steps, in order, with the contract schema each must pass before the next (docs/product.md §2 wizard). */
const parts = [
  { key: 'user', label: T.steps.user, schema: CarUserForm },
  { key: 'device', label: T.steps.device, schema: DeviceForm },
  { key: 'car', label: T.steps.car, schema: WizardCarForm },
] as const;
type Part = (typeof parts)[number]['key'];
/** A field named by a step's schema or by the server ('user.x', 'device.x', 'car.x'): known only at run time. */
type WizardField = FieldPath<CarUserDeviceAddInput>;
const CONFIRM = parts.length;
const DONE = CONFIRM + 2;

/**
 * Customer → terminal → vehicle → confirm → done, in one form. Nothing is saved
 * before the last step: the server registers all three in one transaction, and
 * its field errors ('user.x', 'device.x', 'car.x') send the user back to that step.
 */
export function RegistrationWizard({
  initial,
  steps,
  onRestart,
}: {
  initial: CarUserDeviceAddInput;
  steps: Record<Part, ReactNode>;
  onRestart(): void;
}) {
  const form = useForm<CarUserDeviceAddInput, unknown, z.output<typeof CarUserDeviceAddRequest>>({
    resolver: zodResolver(CarUserDeviceAddRequest),
    defaultValues: initial,
    mode: 'onTouched',
  });
  const [active, setActive] = useState(0);
  const [rootError, setRootError] = useState<string | null>(null);
  const [registered, setRegistered] = useState<Registered | null>(null);
  const save = useRegisterAll();

  /** Validates one step with its own schema; its errors land under its fields. */
  const check = (index: number) => {
    const { key, schema } = parts[index]!;
    form.clearErrors(key);
    const result = schema.safeParse(form.getValues(key));
    if (result.success) return true;
    const errors = Object.entries(fieldErrors(result.error));
    for (const [field, message] of errors) form.setError(`${key}.${field}` as WizardField, { message });
    setActive(index);
    setTimeout(() => form.setFocus(`${key}.${errors[0]![0]}` as WizardField));
    return false;
  };
  const go = (index: number) => {
    setRootError(null);
    setActive(index);
  };
  const [checking, setChecking] = useState(false);
  /** The terminal step also asks the server whether its id and IMEI are free, so a taken one stops here. */
  const next = async () => {
    if (!check(active)) return;
    if (parts[active]!.key === 'device') {
      setChecking(true);
      try {
        const inUse = Object.entries(await terminalInUse(form.getValues('device')));
        for (const [field, message] of inUse) form.setError(`device.${field}` as WizardField, { message });
        if (inUse.length) {
          setTimeout(() => form.setFocus(`device.${inUse[0]![0]}` as WizardField));
          return;
        }
      } catch {
        // The check is a convenience: the server checks again when everything is registered.
      } finally {
        setChecking(false);
      }
    }
    go(active + 1);
  };

  const submit = async () => {
    setRootError(null);
    if (![0, 1, 2].every(check)) return;
    const values = form.getValues();
    try {
      const res = await save.mutateAsync(CarUserDeviceAddRequest.parse(values));
      setRegistered({ ...res, car_data_id: String(values.device.car_data_id) });
      setActive(DONE);
    } catch (e) {
      const fields = e instanceof ApiClientError ? Object.entries(e.errors).filter(([k]) => k !== '_') : [];
      for (const [field, message] of fields) form.setError(field as WizardField, { message });
      const first = parts.findIndex((p) => fields.some(([k]) => k.startsWith(`${p.key}.`)));
      if (first >= 0) setActive(first);
      const specific = e instanceof ApiClientError && e.status !== 401 && e.status < 500 ? e.message : '';
      setRootError(fields.length ? carMessages.wizardFailed : specific || errorMessages.addFailed);
    }
  };

  return (
    <FormProvider {...form}>
      <Paper p="lg" radius="md" withBorder maw={960} component="form" noValidate onSubmit={(e) => e.preventDefault()}>
        <Stepper
          active={active}
          onStepClick={(i) => registered === null && i < active && go(i)}
          allowNextStepsSelect={false}
          size="sm"
          mb="lg"
        >
          {parts.map((p) => (
            <Stepper.Step key={p.key} label={p.label} />
          ))}
          <Stepper.Step label={T.steps.confirm} />
          <Stepper.Step label={T.steps.done} />
        </Stepper>
        <Stack gap="lg">
          {rootError && (
            <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert">
              {rootError}
            </Alert>
          )}
          {active < CONFIRM && (
            <Stack gap="lg" key={parts[active]!.key}>
              {steps[parts[active]!.key]}
            </Stack>
          )}
          {active === CONFIRM && (
            <WizardSummary values={form.getValues()} onEdit={(part) => go(parts.findIndex((p) => p.key === part))} />
          )}
          {registered && <WizardDone registered={registered} onRestart={onRestart} />}
          {!registered && (
            <Group justify="space-between">
              {active > 0 ? (
                <Button variant="default" leftSection={<IconArrowLeft size={16} />} onClick={() => go(active - 1)}>
                  {T.back}
                </Button>
              ) : (
                <span />
              )}
              {active < CONFIRM ? (
                <Button rightSection={<IconArrowRight size={16} />} onClick={() => void next()} loading={checking}>
                  {T.next}
                </Button>
              ) : (
                <Button leftSection={<IconDeviceFloppy size={16} />} loading={save.isPending} onClick={submit}>
                  {T.register}
                </Button>
              )}
            </Group>
          )}
        </Stack>
      </Paper>
    </FormProvider>
  );
}
