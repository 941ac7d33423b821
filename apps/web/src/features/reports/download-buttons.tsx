import { reportFormats, reportLabels, reportMessages, type ReportExportQuery } from '@fleet/contract';
import { Alert, Button, Group, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { messageOf } from '../../lib/api-client';
import { downloadReport } from './api';
import { reportTexts } from './texts';

type Format = (typeof reportFormats)[number];

/** Excel, PDF and CSV of a report; one at a time, with the kilobytes received while it comes. */
export function DownloadButtons({ query, disabled }: { query: Omit<ReportExportQuery, 'format'>; disabled?: boolean }) {
  const [running, setRunning] = useState<{ format: Format; kb: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const start = async (format: Format) => {
    setError(null);
    setRunning({ format, kb: 0 });
    try {
      await downloadReport({ ...query, format } as ReportExportQuery, (kb) => setRunning({ format, kb }));
    } catch (e) {
      setError(messageOf(e, reportMessages.exportFailed));
    } finally {
      setRunning(null);
    }
  };
  return (
    <>
      <Group gap="xs" wrap="nowrap" aria-label={reportTexts.download.label}>
        {reportFormats.map((f) => (
          <Button
            key={f}
            size="xs"
            variant="light"
            leftSection={<IconDownload size={14} />}
            onClick={() => void start(f)}
            loading={running?.format === f}
            disabled={disabled || (running !== null && running.format !== f)}
          >
            {reportLabels.formats[f]}
          </Button>
        ))}
        {running && (
          <Text size="xs" c="dimmed" role="status">
            {running.kb ? reportTexts.download.received(running.kb) : reportTexts.download.running}
          </Text>
        )}
      </Group>
      {error && (
        <Alert color="red" role="alert" mt="xs">
          {error}
        </Alert>
      )}
    </>
  );
}
