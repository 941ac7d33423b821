import {
  areaTemplateApplyCars,
  carApplyAreaTemplate,
  carAvailableAreasUpdate,
  carDisableAreasUpdate,
  carGetAreaStatus,
  carGetAvailableAreas,
  carGetDisableAreas,
  getAreaTemplates,
  areaTemplateDelete,
  areaTemplateUpdate,
  type AreaInput,
  type AreaKind,
  type AreaTemplateInput,
} from '@fleet/contract';
import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../lib/api-client';
import { useDomainMutation } from '../../lib/mutation';

export const areaKeys = {
  all: ['areas'] as const,
  list: (carId: string, kind: AreaKind) => ['areas', carId, kind] as const,
  status: (carId: string) => ['areas', carId, 'status'] as const,
  templates: (kind: AreaKind) => ['areas', 'templates', kind] as const,
};

export const areaListQuery = (car_id: string, kind: AreaKind) =>
  queryOptions({
    queryKey: areaKeys.list(car_id, kind),
    queryFn: async ({ signal }) =>
      kind === 'available'
        ? (await callApi(carGetAvailableAreas, { car_id }, { signal })).available_areas
        : (await callApi(carGetDisableAreas, { car_id }, { signal })).disable_areas,
  });
export const areaStatusQuery = (car_id: string) =>
  queryOptions({
    queryKey: areaKeys.status(car_id),
    queryFn: ({ signal }) => callApi(carGetAreaStatus, { car_id }, { signal }),
    refetchInterval: 15_000,
  });
export const templatesQuery = (kind: AreaKind) =>
  queryOptions({
    queryKey: areaKeys.templates(kind),
    queryFn: ({ signal }) => callApi(getAreaTemplates, { type: kind }, { signal }),
  });

const domain = areaKeys.all[0];
export const useSaveAreas = (kind: AreaKind) =>
  useDomainMutation(domain, ({ car_id, areas }: { car_id: string; areas: AreaInput[] }) =>
    kind === 'available'
      ? callApi(carAvailableAreasUpdate, { car_id, available_areas: areas })
      : callApi(carDisableAreasUpdate, { car_id, disable_areas: areas }),
  );
export const useSaveTemplate = () =>
  useDomainMutation(domain, (template: AreaTemplateInput) => callApi(areaTemplateUpdate, { template }));
export const useDeleteTemplate = () =>
  useDomainMutation(domain, (template_id: string) => callApi(areaTemplateDelete, { template_id }));
export const useApplyTemplate = () =>
  useDomainMutation(domain, (v: { car_id: string; template_id: string }) => callApi(carApplyAreaTemplate, v));
/** The vehicle list's bulk action: one template applied to every vehicle picked, in one transaction. */
export const useApplyTemplateToCars = () =>
  useDomainMutation(domain, (v: { template_id: string; car_ids: string[] }) => callApi(areaTemplateApplyCars, v));
