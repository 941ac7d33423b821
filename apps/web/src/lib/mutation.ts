import { useMutation, useQueryClient } from '@tanstack/react-query';

/** A mutation that refreshes every query of its domain (lists, counts, details) when it succeeds. */
export function useDomainMutation<V, R>(domain: string, fn: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: [domain] }) });
}
