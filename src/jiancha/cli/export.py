"""`jiancha export ...`: PDP as a task of other evaluation tools."""

from __future__ import annotations

import typer

app = typer.Typer(no_args_is_help=True)


@app.command("lm-eval-task")
def lm_eval_task_command(
    out_dir: str = typer.Argument(..., help="Folder to write pdp_bench.yaml, utils.py and jiancha_task.json into."),
    data: str = typer.Option("sample", "--data", help="PDP source: 'sample', a hub id, a save_to_disk folder, or a "
                             "JSONL/JSON/Parquet file."),
    split: str = typer.Option("test", "--split", help="Split to evaluate."),
    prompt: str = typer.Option("baseline", "--prompt", help="baseline | definitions | custom (two-message prompts)."),
    template: str | None = typer.Option(None, "--template", help="Template file for --prompt custom."),
    compat: str = typer.Option("default", "--compat", help="Scoring mode: default | reference."),
    limit: int | None = typer.Option(None, "--limit", help="Only the first N cases."),
    max_gen_toks: int = typer.Option(4096, "--max-gen-toks", help="lm-eval's generation limit per answer."),
) -> None:
    """Write an lm-evaluation-harness task folder: run it with `lm_eval --tasks pdp_bench --include_path DIR`."""
    import importlib.util

    from jiancha._util.lazy import install_command
    from jiancha.integrations.lm_eval_task import TASK_NAME, LmEvalTaskConfig, write_task_folder

    config = LmEvalTaskConfig(data=data, split=split, prompt=prompt, template=template, compat=compat, limit=limit,
                              max_gen_toks=max_gen_toks)
    for p in write_task_folder(out_dir, config):
        typer.echo(f"wrote {p}")
    typer.echo(f"run: lm_eval --model local-chat-completions --model_args model=M,base_url=URL/chat/completions "
               f"--apply_chat_template --tasks {TASK_NAME} --include_path {out_dir}")
    if importlib.util.find_spec("lm_eval") is None:
        typer.echo(f"lm-evaluation-harness is not installed; install it with: {install_command('integrations')}", err=True)
