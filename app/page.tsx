export default function HomePage() {
  return (
    <main className="mx-auto max-w-2xl p-10">
      <h1 className="text-2xl font-semibold">Toolgate</h1>
      <p className="mt-2 text-slate-600">Watching the gate between your models and their tools.</p>
    </main>
  );
}
