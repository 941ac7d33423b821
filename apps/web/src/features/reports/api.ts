import {
  REPORT_EXPORT_PATH,
  carGetGpsLog,
  carTrips,
  fleetSummary,
  jstDayRange,
  reportSubscription,
  reportSubscriptionUpdate,
  tripSettings,
  tripSettingsUpdate,
  type ReportExportQuery,
  type ReportSubscriptionUpdateRequest,
  type TripSettings,
} from '@fleet/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../lib/api-client';
import { downloadStream, saveBlob } from '../../lib/download';

/** Query keys of the trip reports. */
export const reportKeys = {
  all: ['reports'] as const,
  day: (carDataId: string, day: string) => ['reports', 'day', carDataId, day] as const,
  dayRoute: (carDataId: string, day: string) => ['reports', 'day-route', carDataId, day] as const,
  summary: (q: { from: string; to: string; company_id: string | null; group_id?: string | null }) =>
    ['reports', 'summary', q] as const,
  settings: (company: string | null) => ['reports', 'trip-settings', company] as const,
  subscription: ['reports', 'subscription'] as const,
};

/** A vehicle's trips and stops of one JST day (the 運行日報 tab). */
export const useDayTrips = (carDataId: string, day: string) =>
  useQuery({
    queryKey: reportKeys.day(carDataId, day),
    queryFn: ({ signal }) => callApi(carTrips, { car_data_id: carDataId, ...jstDayRange(day)! }, { signal }),
    enabled: !!carDataId && !!jstDayRange(day),
    placeholderData: keepPreviousData,
  });

/** The day's GPS points (thinned by the server), for the route line under the stops. */
export const useDayRoute = (carDataId: string, day: string) =>
  useQuery({
    queryKey: reportKeys.dayRoute(carDataId, day),
    queryFn: ({ signal }) =>
      callApi(carGetGpsLog, { car_data_id: carDataId, ...jstDayRange(day)!, max_points: 3000 }, { signal, fast: true }),
    enabled: !!carDataId && !!jstDayRange(day),
  });

/** The fleet summary over JST days from-to (the super admin may name a company). */
export const useFleetSummary = (q: { from: string; to: string; company_id: string | null; group_id?: string | null }) =>
  useQuery({
    queryKey: reportKeys.summary(q),
    queryFn: ({ signal }) =>
      callApi(
        fleetSummary,
        {
          from: q.from,
          to: q.to,
          ...(q.company_id ? { company_id: q.company_id } : {}),
          ...(q.group_id ? { group_id: q.group_id } : {}),
        },
        { signal, fast: true },
      ),
    enabled: !!q.from && !!q.to,
    placeholderData: keepPreviousData,
    retry: false,
  });

export const useTripSettings = (company: string | null, enabled: boolean) =>
  useQuery({
    queryKey: reportKeys.settings(company),
    queryFn: ({ signal }) => callApi(tripSettings, company ? { company_id: company } : {}, { signal }),
    enabled,
  });

export function useSaveTripSettings(company: string | null) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (settings: TripSettings) =>
      callApi(tripSettingsUpdate, { ...(company ? { company_id: company } : {}), settings }),
    onSuccess: () => qc.invalidateQueries({ queryKey: reportKeys.all }),
  });
}

export const useReportSubscription = () =>
  useQuery({ queryKey: reportKeys.subscription, queryFn: ({ signal }) => callApi(reportSubscription, {}, { signal }) });

export function useSaveReportSubscription() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: ReportSubscriptionUpdateRequest) => callApi(reportSubscriptionUpdate, v),
    onSuccess: () => qc.invalidateQueries({ queryKey: reportKeys.subscription }),
  });
}

/** The file name the server gives the export (content-disposition), computed alike. */
export const reportFileName = (q: ReportExportQuery) =>
  q.kind === 'daily'
    ? `daily_report_${q.car_data_id}_${q.date}.${q.format}`
    : `fleet_summary_${q.from}_${q.to}.${q.format}`;

/** Asks the server for a report file and saves it; `onProgress` gets the kilobytes received so far. */
export async function downloadReport(q: ReportExportQuery, onProgress: (kb: number) => void) {
  const blob = await downloadStream(REPORT_EXPORT_PATH, (p) => onProgress(Math.round(p.bytes / 1024)), undefined, q);
  if (blob) saveBlob(blob, reportFileName(q));
}
