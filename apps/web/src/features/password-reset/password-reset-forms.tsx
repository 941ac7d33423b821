import {
  passwordResetByToken,
  PasswordResetByTokenRequest,
  passwordResetMessages,
  ResetPasswordEmailRequest,
  resetPasswordEmail,
} from '@fleet/contract';
import { Alert, Anchor, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { PasswordField, TextField } from '../../components/edit-shell/fields';
import { FormShell } from '../../components/edit-shell/form-shell';
import { callApi } from '../../lib/api-client';
import { paths } from '../../lib/paths';

const BackToLogin = () => (
  <Anchor component={Link} to={paths.login} size="sm">
    ログイン画面へ戻る
  </Anchor>
);

export function ResetRequestForm() {
  const [sent, setSent] = useState(false);
  return (
    <Stack>
      <Title order={1} size="h3">
        パスワード再設定
      </Title>
      <Text size="sm" c="dimmed">
        登録されているメールアドレスを入力してください。パスワード再設定用のリンクをお送りします。
      </Text>
      {sent ? (
        <Paper withBorder p="lg" radius="md">
          <Stack>
            <Alert color="green" role="status">
              {passwordResetMessages.requested}
            </Alert>
            <BackToLogin />
          </Stack>
        </Paper>
      ) : (
        <FormShell
          schema={ResetPasswordEmailRequest}
          defaultValues={{ email: '' }}
          failureMessage={passwordResetMessages.sendFailed}
          submitLabel="再設定メールを送信"
          onSubmit={async (v) => {
            await callApi(resetPasswordEmail, v);
            setSent(true);
          }}
        >
          <TextField name="email" label="メールアドレス" type="email" required autoComplete="email" />
          <BackToLogin />
        </FormShell>
      )}
    </Stack>
  );
}

export function SetPasswordForm({ token }: { token: string }) {
  const [done, setDone] = useState(false);
  return (
    <Stack>
      <Title order={1} size="h3">
        新しいパスワードの設定
      </Title>
      {done ? (
        <Paper withBorder p="lg" radius="md">
          <Stack>
            <Alert color="green" role="status">
              {passwordResetMessages.done}
            </Alert>
            <Button component={Link} to={paths.login}>
              ログイン画面へ
            </Button>
          </Stack>
        </Paper>
      ) : (
        <FormShell
          schema={PasswordResetByTokenRequest}
          defaultValues={{ token, password: '', password_confirm: '' }}
          failureMessage={passwordResetMessages.tokenInvalid}
          submitLabel="パスワードを変更する"
          onSubmit={async (v) => {
            await callApi(passwordResetByToken, v);
            setDone(true);
          }}
        >
          <Text size="sm" c="dimmed">
            8〜32文字の新しいパスワードを入力してください。
          </Text>
          <PasswordField name="password" label="新しいパスワード" required autoComplete="new-password" />
          <PasswordField
            name="password_confirm"
            label="新しいパスワード（確認）"
            required
            autoComplete="new-password"
          />
          <BackToLogin />
        </FormShell>
      )}
    </Stack>
  );
}
