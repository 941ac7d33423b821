import { errorMessages } from '@fleet/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Paper, Stack } from '@mantine/core';
import { IconAlertCircle, IconArrowLeft, IconDeviceFloppy } from '@tabler/icons-react';
import { useEffect, useRef, type ReactNode } from 'react';
import {
  FormProvider,
  useForm,
  type DefaultValues,
  type FieldValues,
  type Path,
  type UseFormReturn,
} from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import { ApiClientError } from '../../lib/api-client';
import { useLeaveGuard } from './leave-guard';

/** A form's contract schema: the inputs hold its input; what it parses them to (its output) is saved. */
type FormSchema = z.ZodType<FieldValues, FieldValues>;
/** The form of a schema: its fields typed by the schema's input, the submitted values by its output. */
type SchemaForm<S extends FormSchema> = UseFormReturn<z.input<S>, unknown, z.output<S>>;

interface FormShellProps<S extends FormSchema> {
  schema: S;
  defaultValues: DefaultValues<z.input<S>>;
  /** Saves the parsed values; throws ApiClientError on failure (its field errors land under the fields). */
  onSubmit(values: z.output<S>, form: SchemaForm<S>): Promise<unknown>;
  children: ReactNode | ((form: SchemaForm<S>) => ReactNode);
  /** The §8 message shown when saving fails without a more specific one. */
  failureMessage: string;
  submitLabel?: string;
  backTo?: string;
}

/** One edit screen: validate with the contract's schema, save, show server field errors (docs/style.md "Screens"). */
export function FormShell<S extends FormSchema>(props: FormShellProps<S>) {
  // Checked on submit, then as the user corrects: a message appearing on blur moved the submit button
  // under the pointer (the click that blurred a field then missed it) and left only that field's message.
  const form = useForm<z.input<S>, unknown, z.output<S>>({
    resolver: zodResolver(props.schema),
    defaultValues: props.defaultValues,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const rootError = form.formState.errors.root?.message;
  const formRef = useRef<HTMLFormElement>(null);
  // Reset only when the loaded record changes (not on mount: that would wipe what was typed meanwhile).
  const loaded = JSON.stringify(props.defaultValues);
  const lastLoaded = useRef(loaded);
  useEffect(() => {
    if (lastLoaded.current === loaded) return;
    lastLoaded.current = loaded;
    form.reset(props.defaultValues);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded]);

  // A changed field asks before the screen is left; the save itself may move on (to the saved record).
  const guard = useLeaveGuard(form.formState.isDirty);
  const submit = form.handleSubmit(async (values) => {
    try {
      await guard.allowLeave(() => props.onSubmit(values, form));
      // Saved and still here (settings, TOTP): what is on screen is now what is stored.
      form.reset(form.getValues(), { keepErrors: true });
    } catch (e) {
      if (e instanceof ApiClientError) {
        for (const [key, message] of Object.entries(e.errors)) {
          // Add and update calls wrap the form in `info` (docs/product.md §7); the form's fields are the inner keys.
          const field = key.replace(/^info\./, '');
          if (field !== '_') form.setError(field as Path<z.input<S>>, { message }, { shouldFocus: true });
        }
      }
      // A refusal the server explains (duplicate IMEI, invalid input…) shows its own words; otherwise the §8 message.
      let specific = e instanceof ApiClientError && e.status !== 401 && e.status < 500 ? e.message : '';
      // Already shown under a field on screen: the banner only says the input needs fixing.
      const onScreen = (key: string) =>
        !!formRef.current?.querySelector(`[name="${CSS.escape(key.replace(/^info\./, ''))}"]`);
      if (e instanceof ApiClientError && Object.entries(e.errors).some(([k, m]) => m === specific && onScreen(k)))
        specific = errorMessages.badRequest;
      form.setError('root', { message: specific || props.failureMessage });
    }
  });

  return (
    <FormProvider {...form}>
      {guard.dialog}
      <Paper p="lg" radius="md" withBorder component="form" ref={formRef} onSubmit={submit} noValidate maw={880}>
        <Stack gap="md">
          {rootError && (
            <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert">
              {rootError}
            </Alert>
          )}
          {typeof props.children === 'function' ? props.children(form) : props.children}
          <Group justify="space-between" mt="sm">
            {props.backTo ? (
              <Button component={Link} to={props.backTo} variant="default" leftSection={<IconArrowLeft size={16} />}>
                戻る
              </Button>
            ) : (
              <span />
            )}
            <Button type="submit" loading={form.formState.isSubmitting} leftSection={<IconDeviceFloppy size={16} />}>
              {props.submitLabel ?? '保存する'}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </FormProvider>
  );
}
