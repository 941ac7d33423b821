import {
  accountLabels,
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
import { passwordResetTexts as T } from './texts';

const BackToLogin = () => (
  <Anchor component={Link} to={paths.login} size="sm">
    {T.backToLogin}
  </Anchor>
);

export function ResetRequestForm() {
  const [sent, setSent] = useState(false);
  return (
    <Stack>
      <Title order={1} size="h3">
        {T.request.title}
      </Title>
      <Text size="sm" c="dimmed">
        {T.request.lead}
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
          submitLabel={T.request.submit}
          onSubmit={async (v) => {
            await callApi(resetPasswordEmail, v);
            setSent(true);
          }}
        >
          <TextField name="email" label={accountLabels.email} type="email" required autoComplete="email" />
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
        {T.set.title}
      </Title>
      {done ? (
        <Paper withBorder p="lg" radius="md">
          <Stack>
            <Alert color="green" role="status">
              {passwordResetMessages.done}
            </Alert>
            <Button component={Link} to={paths.login}>
              {T.set.toLogin}
            </Button>
          </Stack>
        </Paper>
      ) : (
        <FormShell
          schema={PasswordResetByTokenRequest}
          defaultValues={{ token, password: '', password_confirm: '' }}
          failureMessage={passwordResetMessages.tokenInvalid}
          submitLabel={T.set.submit}
          onSubmit={async (v) => {
            await callApi(passwordResetByToken, v);
            setDone(true);
          }}
        >
          <Text size="sm" c="dimmed">
            {T.set.lead}
          </Text>
          <PasswordField name="password" label={T.set.password} required autoComplete="new-password" />
          <PasswordField name="password_confirm" label={T.set.passwordConfirm} required autoComplete="new-password" />
          <BackToLogin />
        </FormShell>
      )}
    </Stack>
  );
}
