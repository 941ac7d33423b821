import { areaKindLabels, areaLabels, areaMessages, type AreaInput, type AreaKind } from '@fleet/contract';
import { Alert, Badge, Button, Card, Group, Select, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmButton } from '../../components/edit-shell/confirm-button';
import { ApiClientError, messageOf } from '../../lib/api-client';
import { templatesQuery, useApplyTemplate, useDeleteTemplate, useSaveTemplate } from './api';
import { areaTexts } from './texts';

const T = areaTexts.templates;

/** Area templates of one kind: apply one to the vehicle, save the current areas as one, delete one. */
export function TemplatePanel({ kind, carId, areas }: { kind: AreaKind; carId: string; areas: AreaInput[] }) {
  const q = useQuery(templatesQuery(kind));
  const apply = useApplyTemplate();
  const saveT = useSaveTemplate();
  const del = useDeleteTemplate();
  const [chosen, setChosen] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const template = q.data?.list.find((t) => t.template_id === chosen);
  const nameError = saveT.error instanceof ApiClientError ? saveT.error.errors['template.name'] : undefined;
  return (
    <Card withBorder radius="md" padding="md">
      <Title order={2} size="h5" mb="sm">
        {T.title(areaKindLabels[kind])}
      </Title>
      {q.isError && (
        <Alert color="red" mb="sm">
          {messageOf(q.error, areaMessages.templateFetchFailed)}
        </Alert>
      )}
      {notice && (
        <Alert color="green" mb="sm" role="status">
          {notice}
        </Alert>
      )}
      <Group align="flex-end" mb="md">
        <Select
          label={T.template}
          placeholder={T.choose}
          data={(q.data?.list ?? []).map((t) => ({
            value: t.template_id,
            label: T.option(t.name, t.areas.length, !t.company_id),
          }))}
          value={chosen}
          onChange={setChosen}
          w={300}
          nothingFoundMessage={T.none}
        />
        <ConfirmButton
          disabled={!template}
          title={T.applyTitle}
          message={T.applyMessage(template?.name ?? '', template?.areas.length ?? 0, areaKindLabels[kind])}
          confirmLabel={T.applyConfirm}
          failureMessage={areaMessages.templateApplyFailed}
          onConfirm={async () => {
            await apply.mutateAsync({ car_id: carId, template_id: chosen! });
            setNotice(T.applied(template?.name));
          }}
        >
          {T.apply}
        </ConfirmButton>
        {template?.editable && (
          <ConfirmButton
            color="red"
            variant="light"
            title={T.deleteTitle}
            message={T.deleteMessage(template.name)}
            confirmLabel={T.deleteConfirm}
            failureMessage={areaMessages.templateDeleteFailed}
            onConfirm={async () => {
              await del.mutateAsync(template.template_id);
              setChosen(null);
            }}
          >
            {T.delete}
          </ConfirmButton>
        )}
        {template && !template.editable && (
          <Badge variant="light" color="gray">
            {T.readOnly}
          </Badge>
        )}
      </Group>
      <Group align="flex-end">
        <TextInput
          label={T.saveAs}
          placeholder={areaLabels.template_name}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={nameError}
          w={300}
        />
        <Button
          variant="default"
          disabled={!name.trim() || areas.length === 0}
          loading={saveT.isPending}
          onClick={async () => {
            setNotice(null);
            await saveT.mutateAsync({ type: kind, name: name.trim(), areas }).then(
              () => {
                setNotice(T.saved(name.trim()));
                setName('');
              },
              () => undefined,
            );
          }}
        >
          {T.save}
        </Button>
      </Group>
      {saveT.isError && !nameError && (
        <Text c="red" size="sm" mt="xs">
          {messageOf(saveT.error, areaMessages.templateSaveFailed)}
        </Text>
      )}
    </Card>
  );
}
