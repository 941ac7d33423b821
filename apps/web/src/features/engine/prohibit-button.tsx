import { engineMessages, totpMessages } from '@fleet/contract';
import { Anchor, PasswordInput, Stack, TextInput, type ButtonProps } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { ConfirmButton } from '../../components/edit-shell/confirm-button';
import { engineTexts as T } from './texts';
import { useStepUpForm } from './use-step-up-form';

interface ProhibitButtonProps extends ButtonProps {
  children: ReactNode;
  carNumber: string;
  message: string;
  failureMessage: string;
  /** Reserves the prohibit (now or at a time); runs once the session is stepped up. */
  onProhibit(): Promise<unknown>;
}

/**
 * A prohibit, immediate or scheduled (docs/engine-control.md): the vehicle number typed, and the
 * password again (with the TOTP code where the account has one) unless the session stepped up
 * within STEP_UP_MINUTES.
 */
export function ProhibitButton({
  children,
  carNumber,
  message,
  failureMessage,
  onProhibit,
  ...button
}: ProhibitButtonProps) {
  const stepUp = useStepUpForm();
  const [typed, setTyped] = useState('');
  const confirm = async () => {
    const done = await stepUp.run(onProhibit);
    if (done) setTyped('');
    return done;
  };

  return (
    <ConfirmButton
      color="red"
      leftSection={<IconLock size={16} />}
      fullScreenOnPhone
      {...button}
      title={T.prohibitTitle}
      message={message}
      confirmInput={
        <Stack gap="sm">
          <TextInput
            label={T.carNumber}
            placeholder={carNumber}
            value={typed}
            onChange={(e) => setTyped(e.currentTarget.value)}
            data-autofocus
          />
          {stepUp.needPassword && (
            <PasswordInput
              label={T.password}
              description={engineMessages.stepUpRequired}
              autoComplete="current-password"
              withAsterisk
              {...stepUp.field('password')}
            />
          )}
          {stepUp.otpStep && !stepUp.recovery && (
            <TextInput
              key="otp"
              label={T.otp}
              description={totpMessages.otpRequired}
              autoComplete="one-time-code"
              inputMode="numeric"
              maxLength={7}
              withAsterisk
              autoFocus
              {...stepUp.field('otp')}
            />
          )}
          {stepUp.otpStep && stepUp.recovery && (
            <TextInput
              key="recovery_code"
              label={T.recoveryCode}
              description={T.recoveryCodeHint}
              autoComplete="off"
              maxLength={24}
              withAsterisk
              autoFocus
              {...stepUp.field('recovery_code')}
            />
          )}
          {stepUp.otpStep && (
            <Anchor component="button" type="button" size="xs" ta="left" onClick={stepUp.toggleRecovery}>
              {stepUp.recovery ? T.useOtp : T.useRecoveryCode}
            </Anchor>
          )}
        </Stack>
      }
      confirmDisabled={typed.trim() !== carNumber || stepUp.incomplete}
      confirmLabel={T.prohibitLabel}
      failureMessage={failureMessage}
      onConfirm={confirm}
    >
      {children}
    </ConfirmButton>
  );
}
