import { login, LoginRequest, sessionMessages } from '@fleet/contract';
import { Alert, Anchor, Button, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconAlertCircle } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import type { z } from 'zod';
import { Logo } from '../../components/logo';
import { ApiClientError, callApi } from '../../lib/api-client';
import { paths } from '../../lib/paths';
import { useSession } from '../../lib/session-store';

const texts = {
  title: 'ログイン',
  lead: '管理コンソールにログインしてください',
  username: 'ログインID またはメールアドレス',
  password: 'パスワード',
  submit: 'ログイン',
};

type Form = z.input<typeof LoginRequest>;

const failureMessage = (e: unknown) =>
  e instanceof ApiClientError && e.status === 429 ? e.message : e instanceof ApiClientError && e.status === 401 ? sessionMessages.loginFailed : e instanceof ApiClientError ? e.message : sessionMessages.loginFailed;

export function LoginForm() {
  const navigate = useNavigate();
  const signIn = useSession((s) => s.signIn);
  const form = useForm<Form>({ resolver: zodResolver(LoginRequest), defaultValues: { username: '', password: '' } });
  const mutation = useMutation({
    mutationFn: (values: Form) => callApi(login, values),
    onSuccess: async (res) => {
      signIn(res);
      await navigate(paths.car.list, { replace: true });
    },
  });
  const { errors } = form.formState;

  return (
    <Paper w="100%" maw={420} p="xl" radius="lg" shadow="xl" withBorder>
      <form onSubmit={form.handleSubmit((v) => mutation.mutate(v))} noValidate>
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
          <TextInput label={texts.username} autoComplete="username" {...form.register('username')} error={errors.username?.message} />
          <PasswordInput label={texts.password} autoComplete="current-password" {...form.register('password')} error={errors.password?.message} />
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
