"""Docker does not run on these machines: check the compose file parses and wires the settings the app reads."""

import yaml

from app.config import ROOT, Settings


def test_compose_runs_app_with_postgres():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    assert {"app", "db"} <= set(services)
    env = services["app"]["environment"]
    assert env["DATABASE_URL"].startswith("postgresql+psycopg://")
    known = {f"COACH_{name.upper()}" for name in Settings.model_fields} | {"DATABASE_URL", "OPENAI_API_KEY"}
    assert set(env) <= known, set(env) - known
    assert services["app"]["depends_on"]["db"]["condition"] == "service_healthy"
    assert "healthcheck" in services["db"] and "healthcheck" in services["app"]
    assert (ROOT / "Dockerfile").is_file()
