import { sessionMessages } from '@fleet/contract/messages';
import { Alert, Anchor, Button, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { Logo } from '../../components/logo';
import { ApiClientError } from '../../lib/api-error';
import { paths } from '../../lib/paths';
import { loadLoginApi, useLoginForm } from './use-login-form';

const texts = {
  title: 'ログイン',
  lead: '管理コンソールにログインしてください',
  username: 'ログインID またはメールアドレス',
  password: 'パスワード',
  submit: 'ログイン',
};

/** A refused login (401) says so in the spec's words; any other failure (429, network) shows the call's message. */
const failureMessage = (e: unknown) => (e instanceof ApiClientError && e.status !== 401 ? e.message : sessionMessages.loginFailed);

export function LoginForm() {
  const { field, submit, mutation } = useLoginForm();

  return (
    <Paper w="100%" maw={420} p="xl" radius="lg" shadow="xl" withBorder>
      <form onSubmit={(e) => void submit(e)} onFocus={() => void loadLoginApi()} noValidate>
        <Stack gap="md">
          <Logo />
          <div>
            <Title order={2} size="h3">
              {texts.title}
            </Title>
            <Text size="sm" c="dimmed">
              {texts.lead}
            </Text>
          </div>
          {mutation.isError && (
            <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert">
              {failureMessage(mutation.error)}
            </Alert>
          )}
          <TextInput label={texts.username} autoComplete="username" {...field('username')} />
          <PasswordInput label={texts.password} autoComplete="current-password" {...field('password')} />
          <Button type="submit" size="md" loading={mutation.isPending} fullWidth>
            {texts.submit}
          </Button>
          <Anchor component={Link} to={paths.passwordResetRequest} size="sm" ta="center">
            パスワードをお忘れの方はこちら
          </Anchor>
        </Stack>
      </form>
    </Paper>
  );
}
