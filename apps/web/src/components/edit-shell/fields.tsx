import { NumberInput, PasswordInput, Select, Switch, Textarea, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import { Controller, useFormContext, type FieldValues, type Path } from 'react-hook-form';

/** Form inputs bound to the surrounding FormShell; errors appear under the field. */
const errorOf = (errors: FieldValues, name: string): string | undefined => {
  const e = name.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], errors) as
    { message?: string } | undefined;
  return e?.message;
};

interface BaseProps {
  name: string;
  label: string;
  required?: boolean;
  description?: string;
  placeholder?: string;
  disabled?: boolean;
}

export function TextField({
  type,
  autoComplete,
  rightSection,
  ...p
}: BaseProps & { type?: 'text' | 'email' | 'tel'; autoComplete?: string; rightSection?: ReactNode }) {
  const { register, formState } = useFormContext();
  return (
    <TextInput
      {...register(p.name)}
      {...p}
      type={type}
      autoComplete={autoComplete}
      rightSection={rightSection}
      withAsterisk={p.required}
      error={errorOf(formState.errors, p.name)}
    />
  );
}

export function PasswordField(p: BaseProps & { autoComplete?: string }) {
  const { register, formState } = useFormContext();
  return (
    <PasswordInput {...register(p.name)} {...p} withAsterisk={p.required} error={errorOf(formState.errors, p.name)} />
  );
}

export function TextAreaField(p: BaseProps) {
  const { register, formState } = useFormContext();
  return <Textarea {...register(p.name)} {...p} autosize minRows={3} error={errorOf(formState.errors, p.name)} />;
}

export function SelectField(
  p: BaseProps & { data: { value: string; label: string }[]; numeric?: boolean; clearable?: boolean },
) {
  const { control, formState } = useFormContext();
  return (
    <Controller
      name={p.name as Path<FieldValues>}
      control={control}
      render={({ field }) => (
        <Select
          label={p.label}
          description={p.description}
          withAsterisk={p.required}
          disabled={p.disabled}
          data={p.data}
          clearable={p.clearable}
          placeholder={p.placeholder}
          allowDeselect={!!p.clearable}
          value={field.value === null || field.value === undefined ? null : String(field.value)}
          onChange={(v) => field.onChange(v === null ? null : p.numeric ? Number(v) : v)}
          onBlur={field.onBlur}
          error={errorOf(formState.errors, p.name)}
        />
      )}
    />
  );
}

export function NumberField(p: BaseProps & { min?: number; max?: number; decimalScale?: number }) {
  const { control, formState } = useFormContext();
  return (
    <Controller
      name={p.name as Path<FieldValues>}
      control={control}
      render={({ field }) => (
        <NumberInput
          label={p.label}
          description={p.description}
          withAsterisk={p.required}
          min={p.min}
          max={p.max}
          decimalScale={p.decimalScale}
          value={field.value ?? ''}
          onChange={(v) => field.onChange(v === '' ? null : Number(v))}
          onBlur={field.onBlur}
          error={errorOf(formState.errors, p.name)}
        />
      )}
    />
  );
}

/** An on/off field; `onToggle` tells the form that the user (not a default) set it. */
export function SwitchField(p: BaseProps & { onToggle?(checked: boolean): void }) {
  const { control, formState } = useFormContext();
  return (
    <Controller
      name={p.name as Path<FieldValues>}
      control={control}
      render={({ field }) => (
        <Switch
          ref={field.ref}
          name={field.name}
          label={p.label}
          description={p.description}
          disabled={p.disabled}
          checked={!!field.value}
          onChange={(e) => {
            field.onChange(e.currentTarget.checked);
            p.onToggle?.(e.currentTarget.checked);
          }}
          onBlur={field.onBlur}
          error={errorOf(formState.errors, p.name)}
        />
      )}
    />
  );
}
