import { areaKindLabels, areaMessages, type AreaInput, type AreaKind } from '@fleet/contract';
import { Alert, Badge, Button, Card, Group, Select, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmButton } from '../../components/edit-shell/confirm-button';
import { ApiClientError, messageOf } from '../../lib/api-client';
import { templatesQuery, useApplyTemplate, useDeleteTemplate, useSaveTemplate } from './api';

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
        {areaKindLabels[kind]}のテンプレート
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
          label="テンプレート"
          placeholder="選択してください"
          data={(q.data?.list ?? []).map((t) => ({
            value: t.template_id,
            label: `${t.name}（${t.areas.length}件）${t.company_id ? '' : '・本部共有'}`,
          }))}
          value={chosen}
          onChange={setChosen}
          w={300}
          nothingFoundMessage="テンプレートはありません"
        />
        <ConfirmButton
          disabled={!template}
          title="テンプレートの適用"
          message={`「${template?.name ?? ''}」のエリア${template?.areas.length ?? 0}件で、この車両の${areaKindLabels[kind]}を置き換えます。よろしいですか？`}
          confirmLabel="適用する"
          failureMessage={areaMessages.templateApplyFailed}
          onConfirm={async () => {
            await apply.mutateAsync({ car_id: carId, template_id: chosen! });
            setNotice(`テンプレート「${template?.name}」を適用しました。`);
          }}
        >
          この車両に適用
        </ConfirmButton>
        {template?.editable && (
          <ConfirmButton
            color="red"
            variant="light"
            title="テンプレートの削除"
            message={`テンプレート「${template.name}」を削除します。`}
            confirmLabel="削除する"
            failureMessage={areaMessages.templateDeleteFailed}
            onConfirm={async () => {
              await del.mutateAsync(template.template_id);
              setChosen(null);
            }}
          >
            削除
          </ConfirmButton>
        )}
        {template && !template.editable && (
          <Badge variant="light" color="gray">
            本部共有（変更不可）
          </Badge>
        )}
      </Group>
      <Group align="flex-end">
        <TextInput
          label="現在のエリアをテンプレートとして保存"
          placeholder="テンプレート名"
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
                setNotice(`テンプレート「${name.trim()}」を保存しました。`);
                setName('');
              },
              () => undefined,
            );
          }}
        >
          保存
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
