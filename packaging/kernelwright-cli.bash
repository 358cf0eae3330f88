# bash completion for kernelwright-cli: commands, their verbs, options and
# bundled problem names. Options are read from the installed program's own
# `COMMAND --help`, so they follow the program without editing this file.

_kernelwright_cli_options() {
    "$1" "$2" --help 2>/dev/null | grep -o -- '--[a-z][a-z0-9-]*' | sort -u
}

# Bundled problems as `problem list` names them (cpu/mbdt) and by their short name (mbdt).
_kernelwright_cli_problems() {
    "$1" problem list 2>/dev/null | awk 'NF { print $1; n = split($1, part, "/"); print part[n] }'
}

_kernelwright_cli() {
    local cur prev cli=${COMP_WORDS[0]}
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}

    # The command is the first word after the global options.
    local i command="" verb="" skip=0
    for ((i = 1; i < COMP_CWORD; i++)); do
        local w=${COMP_WORDS[i]}
        if ((skip)); then skip=0; continue; fi
        case $w in
            --db) skip=1 ;;
            -*) ;;
            *) if [[ -z $command ]]; then command=$w; elif [[ -z $verb ]]; then verb=$w; fi ;;
        esac
    done

    case $prev in
        --db|--out|--candidate|--llm-config|--json|--ssh-key)
            COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --problem)
            COMPREPLY=($(compgen -W "$(_kernelwright_cli_problems "$cli")" -- "$cur"))
            COMPREPLY+=($(compgen -d -- "$cur")); return ;;
        --format) COMPREPLY=($(compgen -W "openai-chat jsonl" -- "$cur")); return ;;
        --policy) COMPREPLY=($(compgen -W "mcts evo beam greedy random exhaustive" -- "$cur")); return ;;
        --memory) COMPREPLY=($(compgen -W "both ancestors siblings none" -- "$cur")); return ;;
        --synth) COMPREPLY=($(compgen -W "tuner llm hybrid" -- "$cur")); return ;;
        --executor) COMPREPLY=($(compgen -W "local ssh slurm" -- "$cur")); return ;;
        --profile) COMPREPLY=($(compgen -W "roofline counters cachegrind" -- "$cur")); return ;;
    esac

    if [[ -z $command ]]; then
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "--db --verbose --quiet --version --help" -- "$cur"))
        else
            COMPREPLY=($(compgen -W "problem eval search bench llm kb machine profile export" -- "$cur"))
        fi
        return
    fi
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(_kernelwright_cli_options "$cli" "$command")" -- "$cur"))
        return
    fi
    if [[ -z $verb ]]; then
        local verbs=""
        case $command in
            problem) verbs="check list" ;;
            search) verbs="start resume list show calls export pause stop budget prune unprune pin unpin boost hint add-child" ;;
            llm) verbs="models test" ;;
            kb) verbs="search import validate list show distill skills" ;;
            machine) verbs="probe show" ;;
            profile) verbs="ncu show" ;;
            export) verbs="trajectories best" ;;
        esac
        COMPREPLY=($(compgen -W "$verbs" -- "$cur"))
        [[ $command == profile ]] && COMPREPLY+=($(compgen -f -- "$cur"))
        return
    fi
    if [[ $command == problem && $verb == check ]]; then
        COMPREPLY=($(compgen -W "$(_kernelwright_cli_problems "$cli")" -- "$cur"))
        COMPREPLY+=($(compgen -d -- "$cur"))
        return
    fi
    if [[ $command == kb && $verb == skills ]]; then
        COMPREPLY=($(compgen -W "list approve reject" -- "$cur"))
        return
    fi
    COMPREPLY=($(compgen -f -- "$cur"))
}

complete -F _kernelwright_cli kernelwright-cli
