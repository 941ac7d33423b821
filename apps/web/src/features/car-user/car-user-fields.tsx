import { carUserLabels as L, userExistCheck } from '@fleet/contract';
import { TextInput } from '@mantine/core';
import { SelectField, TextAreaField, TextField } from '../../components/edit-shell/fields';
import { FormSection } from '../../components/edit-shell/form-section';
import { GeneratedIdField } from '../../components/edit-shell/generated-id-field';
import { generateCheckedId } from '../../lib/use-id-generator';
import { customerStateOptions, genderOptions, paymentDelayOptions } from './options';
import { carUserTexts } from './texts';

const T = carUserTexts.fields;

export interface CarUserFieldsProps {
  /** '' in the customer form, 'user.' in the registration wizard. */
  prefix?: string;
  mode: 'add' | 'edit';
  /** Company choices for the super admin; others see their company fixed. */
  companies?: { value: string; label: string }[];
  companyName?: string | null;
}

/** The fields of the customer form (docs/product.md §3), shared by the customer screens and the wizard. */
export function CarUserFields({ prefix = '', mode, companies, companyName }: CarUserFieldsProps) {
  const n = (field: string) => `${prefix}${field}`;
  return (
    <>
      <FormSection title={T.basic}>
        {mode === 'add' ? (
          <GeneratedIdField
            name={n('user_id')}
            label={L.user_id}
            generate={() => generateCheckedId(userExistCheck, 'user_id')}
          />
        ) : (
          <TextField name={n('user_id')} label={L.user_id} required disabled />
        )}
        {companies ? (
          <SelectField
            name={n('company_id')}
            label={L.company_id}
            data={companies}
            clearable
            placeholder={T.noCompany}
          />
        ) : (
          <TextInput label={L.company_id} value={companyName ?? T.noCompany} disabled readOnly />
        )}
        <TextField name={n('first_name')} label={L.first_name} required autoComplete="family-name" />
        <TextField name={n('name')} label={L.name} required autoComplete="given-name" />
        <TextField name={n('birthday')} label={L.birthday} placeholder={T.birthdayFormat} />
        <SelectField
          name={n('gender')}
          label={L.gender}
          data={genderOptions}
          numeric
          clearable
          placeholder={T.genderNone}
        />
        <TextField name={n('merchant')} label={L.merchant} />
        <TextField
          name={n('work_phone')}
          label={L.work_phone}
          type="tel"
          autoComplete="tel"
          placeholder={T.phoneExample}
        />
      </FormSection>
      <FormSection title={T.contract}>
        <SelectField name={n('state')} label={L.state} data={customerStateOptions} numeric required />
        <SelectField name={n('payment_log')} label={L.payment_log} data={paymentDelayOptions} numeric required />
      </FormSection>
      <FormSection title={T.address}>
        <TextField
          name={n('user_postal')}
          label={L.user_postal}
          placeholder={T.postalExample}
          autoComplete="postal-code"
        />
        <TextField name={n('user_state')} label={L.user_state} autoComplete="address-level1" />
        <TextField name={n('user_address')} label={L.user_address} autoComplete="address-line1" />
        <TextField name={n('user_address_sub')} label={L.user_address_sub} autoComplete="address-line2" />
      </FormSection>
      <FormSection title={T.work}>
        <TextField name={n('work_postal')} label={L.work_postal} placeholder={T.postalExample} />
        <TextField name={n('work_state')} label={L.work_state} />
        <TextField name={n('work_address')} label={L.work_address} />
        <TextField name={n('work_address_sub')} label={L.work_address_sub} />
      </FormSection>
      <FormSection title={T.other} cols={1}>
        <TextAreaField name={n('detail')} label={L.detail} />
      </FormSection>
    </>
  );
}
