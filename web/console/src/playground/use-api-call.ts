import { useState } from 'preact/hooks';

/**
 * The state of one playground request: its reply, its error, whether it runs. `submit` makes a
 * form's submit handler that clears the last answer and runs `call`.
 */
export function useApiCall<T>(call: () => Promise<T>) {
  const [result, setResult] = useState<T | undefined>();
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setResult(undefined);
    setError('');
    setBusy(true);
    try {
      setResult(await call());
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return { result, error, busy, submit };
}
