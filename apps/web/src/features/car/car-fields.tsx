import { carLabels as L } from '@fleet/contract';
import type { ReactNode } from 'react';
import { NumberField, TextField } from '../../components/edit-shell/fields';
import { FormSection } from '../../components/edit-shell/form-section';
import { carTexts } from './texts';

const T = carTexts.fields;

/**
 * The vehicle's own fields (docs/product.md §3), shared by the vehicle screens and the
 * wizard ('car.' prefix); `children` slot in the customer and terminal pickers.
 */
export function CarFields({ prefix = '', children }: { prefix?: string; children?: ReactNode }) {
  const n = (field: string) => `${prefix}${field}`;
  return (
    <>
      <FormSection title={T.section}>
        <TextField name={n('car_id')} label={L.car_id} required disabled />
        <TextField name={n('car_number')} label={L.car_number} required placeholder={T.carNumberExample} />
        <TextField name={n('car_type')} label={L.car_type} placeholder={T.carTypeExample} />
        <TextField name={n('car_vin')} label={L.car_vin} placeholder={T.carVinExample} />
      </FormSection>
      {children}
      <FormSection title={T.availableData(L.available_data)}>
        <NumberField name={n('available_data.lat_min')} label={L.lat_min} min={-90} max={90} decimalScale={6} />
        <NumberField name={n('available_data.lat_max')} label={L.lat_max} min={-90} max={90} decimalScale={6} />
        <NumberField name={n('available_data.lng_min')} label={L.lng_min} min={-180} max={180} decimalScale={6} />
        <NumberField name={n('available_data.lng_max')} label={L.lng_max} min={-180} max={180} decimalScale={6} />
      </FormSection>
    </>
  );
}
