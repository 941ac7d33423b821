import { sessionMessages } from '@fleet/contract/messages';
import { Alert, Anchor, Button, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { Logo } from '../../components/logo';
import { ApiClientError } from '../../lib/api-error';
import { paths } from '../../lib/paths';
import { authTexts as texts } from './texts';
import { loadLoginApi, useLoginForm } from './use-login-form';

/**
 * A refused login (401) says so in the spec's words, a wrong code in the server's; any other failure
 * (429, network) shows the call's message. The server asking for the code is no failure.
 */
const failureMessage = (e: unknown) =>
  e instanceof ApiClientError && (e.status !== 401 || e.errors.otp || e.errors.recovery_code)
    ? e.message
    : sessionMessages.loginFailed;
const isFailure = (e: unknown) => !(e instanceof ApiClientError && e.code === 'OTP_REQUIRED');

export function LoginForm() {
  const { field, submit, mutation, otpStep, recovery, toggleRecovery, restart } = useLoginForm();

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
          {mutation.isError && isFailure(mutation.error) && (
            <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert">
              {failureMessage(mutation.error)}
            </Alert>
          )}
          {otpStep ? (
            <>
              <Text size="sm">{recovery ? texts.recoveryLead : texts.otpLead}</Text>
              {recovery ? (
                <TextInput
                  key="recovery_code"
                  label={texts.recoveryCode}
                  autoComplete="off"
                  maxLength={24}
                  autoFocus
                  {...field('recovery_code')}
                />
              ) : (
                <TextInput
                  key="otp"
                  label={texts.otp}
                  autoComplete="one-time-code"
                  inputMode="numeric"
                  maxLength={7}
                  data-autofocus
                  autoFocus
                  {...field('otp')}
                />
              )}
              <Button type="submit" size="md" loading={mutation.isPending} fullWidth>
                {texts.otpSubmit}
              </Button>
              <Anchor component="button" type="button" size="sm" ta="center" onClick={toggleRecovery}>
                {recovery ? texts.useOtp : texts.useRecoveryCode}
              </Anchor>
              <Anchor component="button" type="button" size="sm" ta="center" onClick={restart}>
                {texts.back}
              </Anchor>
            </>
          ) : (
            <>
              <TextInput label={texts.username} autoComplete="username" {...field('username')} />
              <PasswordInput label={texts.password} autoComplete="current-password" {...field('password')} />
              <Button type="submit" size="md" loading={mutation.isPending} fullWidth>
                {texts.submit}
              </Button>
            </>
          )}
          <Anchor component={Link} to={paths.passwordResetRequest} size="sm" ta="center">
            {texts.forgotPassword}
          </Anchor>
        </Stack>
      </form>
    </Paper>
  );
}
