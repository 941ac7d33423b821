import { errorMessages } from '@fleet/contract';
import { IconRestore, IconTrash } from '@tabler/icons-react';
import { ConfirmButton } from './confirm-button';

/**
 * Logical delete or restore of a record (docs/product.md §4 isDelete), asked first;
 * a failure shows the §8 message (or the server's reason) in the dialog.
 */
export function DeleteRestoreButton({
  isDelete,
  noun,
  subject,
  note,
  onToggle,
}: {
  isDelete: boolean;
  noun: string;
  subject: string;
  note?: string;
  onToggle(): Promise<unknown>;
}) {
  const verb = isDelete ? '復元' : '削除';
  return (
    <ConfirmButton
      color={isDelete ? 'blue' : 'red'}
      variant="light"
      leftSection={isDelete ? <IconRestore size={16} /> : <IconTrash size={16} />}
      title={`${noun}の${verb}`}
      message={`${subject}を${verb}します。${!isDelete && note ? note : ''}よろしいですか？`}
      confirmLabel={`${verb}する`}
      failureMessage={isDelete ? errorMessages.updateFailed : errorMessages.deleteFailed}
      onConfirm={onToggle}
    >
      {verb}
    </ConfirmButton>
  );
}
